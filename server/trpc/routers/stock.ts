/**
 * A pharmacy's SKUs, stock and prices, one implementation mounted under both portals
 * (pharmacy.stock, admin.pharmacyStock): the same domain functions as the External Pharmacy API's
 * pharmacy_skus/ endpoints (same hidden SKU type, same stock movements and
 * pharmacy_sku_stock_updated events), each SKU's recent stock movements, and the assortment's CSV
 * import and export. Which pharmacy is its door's scope (stockPharmacy); the inputs and shapes are
 * the same, so one table (components/stock-table.tsx) serves both portals. An administrator's
 * import may add SKUs to the assortment, a pharmacist's only changes those it carries.
 */
import { wordIn } from "@/i18n/error-text";
import { exportAssortment } from "@/server/domain/catalogue/export-assortment";
import { applyAssortmentImport, previewAssortmentImport } from "@/server/domain/catalogue/import-assortment";
import { listPharmacySkus, listStockMovements, organisationPharmacy, updatePharmacySku, updatePharmacySkuAsAdmin } from "@/server/domain/catalogue/pharmacy-skus";
import { NotFoundError } from "@/server/domain/errors";
import { router, type PortalProcedure, type PortalScope } from "@/server/trpc/init";
import { presentImportPreview, presentPortalPharmacySku, presentStockMovement } from "./pharmacy-skus.presenters";
import { exportAssortmentInput, importAssortmentInput, listPharmacySkusInput, stockMovementsInput, updatePharmacySkuInput } from "./pharmacy-skus.schemas";

/**
 * SKUs are per pharmacy. An admin names any of the organisation's pharmacies; a pharmacist acts for
 * its own or names one in reach (a group pharmacist must). Out of reach, or none named: not found.
 */
async function stockPharmacy(scope: PortalScope, pharmacyUid: string | undefined) {
  if (scope.door === "pharmacy") return scope.pharmacy(pharmacyUid);
  if (!pharmacyUid) throw new NotFoundError();
  return organisationPharmacy(scope.organisationId, pharmacyUid);
}

export const stockRouter = (procedure: PortalProcedure) =>
  router({
    list: procedure.input(listPharmacySkusInput).query(async ({ ctx, input }) => {
      const pharmacy = await stockPharmacy(ctx.scope, input.pharmacyUid);
      const page = { page: input.page, limit: input.limit };
      const { items, total } = await listPharmacySkus(pharmacy, page, { search: input.search, maxStock: input.maxStock });
      return { items: items.map(presentPortalPharmacySku), total, page: input.page, limit: input.limit, totalPages: Math.ceil(total / input.limit) };
    }),

    /**
     * Stock, price and external id, as the REST PATCH sets them; a stock change is recorded as the
     * user's. The organisation's own hand on a pharmacy's stock is audited as well (updatePharmacySkuAsAdmin).
     */
    update: procedure.input(updatePharmacySkuInput).mutation(async ({ ctx, input }) => {
      const pharmacy = await stockPharmacy(ctx.scope, input.pharmacyUid);
      const changes = { stock: input.stock, price: input.price, externalId: input.externalId };
      const row =
        ctx.scope.door === "admin"
          ? await updatePharmacySkuAsAdmin(ctx.scope.organisationId, pharmacy.id, input.pharmacySkuUid, changes, ctx.user.id)
          : await updatePharmacySku(pharmacy, input.pharmacySkuUid, changes, { type: "USER", userId: ctx.user.id });
      return presentPortalPharmacySku(row);
    }),

    movements: procedure.input(stockMovementsInput).query(async ({ ctx, input }) => {
      const pharmacy = await stockPharmacy(ctx.scope, input.pharmacyUid);
      return (await listStockMovements(pharmacy, input.pharmacySkuUid, input.limit)).map(presentStockMovement);
    }),

    /** What importing the file would do, row by row; writes nothing (a mutation: the file is too large for a query's URL). */
    importPreview: procedure.input(importAssortmentInput).mutation(async ({ ctx, input }) => {
      const pharmacy = await stockPharmacy(ctx.scope, input.pharmacyUid);
      return presentImportPreview(await previewAssortmentImport(pharmacy, input.csv, ctx.scope.door), wordIn(ctx.locale));
    }),

    /** The import, all or nothing, as the user's; the organisation's own hand is audited. */
    importApply: procedure.input(importAssortmentInput).mutation(async ({ ctx, input }) => {
      const pharmacy = await stockPharmacy(ctx.scope, input.pharmacyUid);
      const audit = ctx.scope.door === "admin" ? { organisationId: ctx.scope.organisationId } : undefined;
      return applyAssortmentImport(pharmacy, input.csv, ctx.scope.door, { type: "USER", userId: ctx.user.id }, audit);
    }),

    /** The assortment as CSV text, which the browser saves as a file. */
    exportCsv: procedure.input(exportAssortmentInput).query(async ({ ctx, input }) => {
      const pharmacy = await stockPharmacy(ctx.scope, input.pharmacyUid);
      return { csv: await exportAssortment(pharmacy, input.separator), pharmacyName: pharmacy.displayName };
    }),
  });
