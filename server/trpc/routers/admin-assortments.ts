/**
 * The admin tool's hand on a pharmacy's assortment (admin.assortments): which SKUs of the catalogue
 * it does not carry yet, adding SKUs (one or many at once) and removing one. The stock, prices and
 * the CSV import and export of the same page are the stock router's (admin.pharmacyStock).
 */
import { addToAssortment, listSkusOutsideAssortment, removeFromAssortment } from "@/server/domain/catalogue/assortments";
import { adminProcedure, router } from "@/server/trpc/init";
import { addToAssortmentInput, assortmentCandidatesInput, removeFromAssortmentInput } from "./admin-assortments.schemas";

export const adminAssortmentsRouter = router({
  candidates: adminProcedure.input(assortmentCandidatesInput).query(async ({ ctx, input }) => {
    const { items, total } = await listSkusOutsideAssortment(ctx.scope.organisationId, input.pharmacyUid, input.search, { page: input.page, limit: input.limit });
    return {
      items: items.map((s) => ({ uid: s.id, displayName: s.displayName, pzn: s.pzn, digital: s.digital, productDisplayName: s.product.displayName })),
      total,
      page: input.page,
      limit: input.limit,
      totalPages: Math.ceil(total / input.limit),
    };
  }),

  add: adminProcedure.input(addToAssortmentInput).mutation(async ({ ctx, input }) => {
    const entries = input.entries.map((e) => ({ skuId: e.skuUid, externalId: e.externalId, price: e.price, stock: e.stock }));
    const ids = await addToAssortment(ctx.scope.organisationId, input.pharmacyUid, entries, ctx.user.id);
    return { pharmacySkuUids: ids };
  }),

  remove: adminProcedure.input(removeFromAssortmentInput).mutation(async ({ ctx, input }) => {
    await removeFromAssortment(ctx.scope.organisationId, input.pharmacyUid, input.pharmacySkuUid, ctx.user.id);
  }),
});
