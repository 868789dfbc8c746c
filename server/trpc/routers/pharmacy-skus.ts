/**
 * Pharmacy portal, Stock and prices: the pharmacy's SKUs through the same domain functions as the
 * External Pharmacy API's pharmacy_skus/ endpoints (same hidden SKU type, same stock movements and
 * pharmacy_sku_stock_updated events), and each SKU's recent stock movements.
 */
import { listPharmacySkus, listStockMovements, updatePharmacySku } from "@/server/domain/catalogue/pharmacy-skus";
import { NotFoundError } from "@/server/domain/errors";
import { pharmacyToActFor, type PharmacyReach } from "@/server/domain/pharmacies/pharmacy-scope";
import { pharmacistProcedure, router } from "@/server/trpc/init";
import { presentPortalPharmacySku, presentStockMovement } from "./pharmacy-skus.presenters";
import { listPharmacySkusInput, stockMovementsInput, updatePharmacySkuInput } from "./pharmacy-skus.schemas";

/** SKUs are per pharmacy: a group pharmacist names one; out of reach is not found. */
async function pharmacyOf(user: PharmacyReach, requested: string | undefined) {
  const pharmacy = await pharmacyToActFor(user, requested ?? null);
  if (!pharmacy) throw new NotFoundError();
  return pharmacy;
}

export const pharmacySkusRouter = router({
  list: pharmacistProcedure.input(listPharmacySkusInput).query(async ({ ctx, input }) => {
    const pharmacy = await pharmacyOf(ctx.user, input.pharmacyUid);
    const page = { page: input.page, limit: input.limit };
    const { items, total } = await listPharmacySkus(pharmacy, page, { search: input.search, maxStock: input.maxStock });
    return { items: items.map(presentPortalPharmacySku), total, page: input.page, limit: input.limit, totalPages: Math.ceil(total / input.limit) };
  }),

  /** Stock, price and external id, as the REST PATCH sets them; a stock change is recorded as the user's. */
  update: pharmacistProcedure.input(updatePharmacySkuInput).mutation(async ({ ctx, input }) => {
    const pharmacy = await pharmacyOf(ctx.user, input.pharmacyUid);
    const row = await updatePharmacySku(
      pharmacy,
      input.pharmacySkuUid,
      { stock: input.stock, price: input.price, externalId: input.externalId },
      { type: "USER", userId: ctx.user.id },
    );
    return presentPortalPharmacySku(row);
  }),

  movements: pharmacistProcedure.input(stockMovementsInput).query(async ({ ctx, input }) => {
    const pharmacy = await pharmacyOf(ctx.user, input.pharmacyUid);
    return (await listStockMovements(pharmacy, input.pharmacySkuUid, input.limit)).map(presentStockMovement);
  }),
});
