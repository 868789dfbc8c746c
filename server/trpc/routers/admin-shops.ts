/** The admin tool's shops and their shipping methods. */
import {
  createShippingMethod,
  createShop,
  listAdminShops,
  renameShippingMethod,
  renameShop,
} from "@/server/domain/shops/admin-shops";
import { adminProcedure, router } from "@/server/trpc/init";
import { unix } from "@/server/wire/format";
import { createShippingMethodInput, createShopInput, renameShippingMethodInput, renameShopInput } from "./admin-shops.schemas";

const presentMethod = (m: { id: string; externalId: string; displayName: string }) => ({ uid: m.id, externalId: m.externalId, displayName: m.displayName });
const presentShop = (s: { id: string; identifier: string; displayName: string }) => ({ uid: s.id, identifier: s.identifier, displayName: s.displayName });

export const adminShopsRouter = router({
  list: adminProcedure.query(async ({ ctx }) =>
    (await listAdminShops(ctx.scope.organisationId)).map((s) => ({
      ...presentShop(s),
      createdAt: unix(s.createdAt),
      shippingMethods: s.shippingMethods.map(presentMethod),
    })),
  ),
  create: adminProcedure.input(createShopInput).mutation(async ({ ctx, input }) => presentShop(await createShop(ctx.scope.organisationId, ctx.user.id, input))),
  rename: adminProcedure
    .input(renameShopInput)
    .mutation(async ({ ctx, input }) => presentShop(await renameShop(ctx.scope.organisationId, ctx.user.id, input.shopUid, input.displayName))),
  createShippingMethod: adminProcedure
    .input(createShippingMethodInput)
    .mutation(async ({ ctx, input }) =>
      presentMethod(await createShippingMethod(ctx.scope.organisationId, ctx.user.id, input.shopUid, { externalId: input.externalId, displayName: input.displayName })),
    ),
  renameShippingMethod: adminProcedure
    .input(renameShippingMethodInput)
    .mutation(async ({ ctx, input }) => presentMethod(await renameShippingMethod(ctx.scope.organisationId, ctx.user.id, input.shippingMethodUid, input.displayName))),
});
