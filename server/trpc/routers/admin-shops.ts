/** The admin tool's shops and their shipping methods. */
import {
  createShippingMethod,
  createShop,
  listAdminShops,
  renameShippingMethod,
  renameShop,
} from "@/server/domain/shops/admin-shops";
import { saveShopifyConnection, shopifyConnectionsOf, testShopifyConnection } from "@/server/domain/shopify/connection";
import { listShopifyTaskProblems } from "@/server/domain/shopify/task-problems";
import { listShopifyWebhookRefusals } from "@/server/domain/shopify/order-webhook";
import { adminProcedure, router } from "@/server/trpc/init";
import { unix } from "@/server/wire/format";
import {
  createShippingMethodInput,
  createShopInput,
  renameShippingMethodInput,
  renameShopInput,
  saveShopifyConnectionInput,
  shopifyRefusalsInput,
  testShopifyConnectionInput,
} from "./admin-shops.schemas";

const presentMethod = (m: { id: string; externalId: string; displayName: string }) => ({ uid: m.id, externalId: m.externalId, displayName: m.displayName });
const presentShop = (s: { id: string; identifier: string; displayName: string }) => ({ uid: s.id, identifier: s.identifier, displayName: s.displayName });

export const adminShopsRouter = router({
  list: adminProcedure.query(async ({ ctx }) => {
    const [shops, connections] = await Promise.all([listAdminShops(ctx.scope.organisationId), shopifyConnectionsOf(ctx.scope.organisationId)]);
    const connectionOf = new Map(connections.map((c) => [c.shopId, c]));
    return shops.map((s) => {
      const shopify = connectionOf.get(s.id);
      return {
        ...presentShop(s),
        createdAt: unix(s.createdAt),
        shippingMethods: s.shippingMethods.map(presentMethod),
        // Secrets only as their last four characters.
        shopify: shopify
          ? { storeUrl: shopify.storeUrl, accessTokenHint: shopify.accessTokenHint, clientSecretHint: shopify.clientSecretHint, updatedAt: unix(shopify.updatedAt) }
          : null,
      };
    });
  }),
  saveShopify: adminProcedure
    .input(saveShopifyConnectionInput)
    .mutation(async ({ ctx, input }) => {
      await saveShopifyConnection(ctx.scope.organisationId, ctx.user.id, input.shopUid, {
        storeUrl: input.storeUrl,
        accessToken: input.accessToken || undefined,
        clientSecret: input.clientSecret || undefined,
      });
    }),
  testShopify: adminProcedure.input(testShopifyConnectionInput).mutation(({ ctx, input }) => testShopifyConnection(ctx.scope.organisationId, input.shopUid)),
  /** Shopify tasks that keep failing: tracking links not yet on their orders, draft orders not yet deleted. */
  shopifyTaskProblems: adminProcedure.query(async ({ ctx }) =>
    (await listShopifyTaskProblems(ctx.scope.organisationId)).map((p) => ({
      taskUid: p.taskId,
      shopUid: p.shopId,
      kind: p.kind,
      subject: p.subject,
      state: p.state,
      attempts: p.attempts,
      lastError: p.lastError,
      nextAttemptAt: p.nextAttemptAt ? unix(p.nextAttemptAt) : null,
    })),
  ),
  /** The shop's signed order webhooks that order intake refused (answered 200), newest first, with the reason. */
  shopifyRefusals: adminProcedure.input(shopifyRefusalsInput).query(async ({ ctx, input }) =>
    (await listShopifyWebhookRefusals(ctx.scope.organisationId, input.shopUid)).map((r) => ({
      uid: r.id,
      webhookId: r.webhookId,
      shopifyOrderId: r.shopifyOrderId,
      reason: r.reason,
      receivedAt: unix(r.createdAt),
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
