import { database } from "@/server/db/client";
import { assortmentCsv, type CsvSeparator } from "./assortment-csv";
import { visibleTo, type PharmacyScope } from "./pharmacy-skus";

/**
 * The pharmacy's assortment as CSV (assortment-csv.ts: sku_uid, pzn, display_name, external_id,
 * price_cents, stock), what the pharmacy sees of it (not the hidden SKU type), by SKU name. Importing
 * the file back changes nothing.
 */
export async function exportAssortment(pharmacy: PharmacyScope, separator: CsvSeparator): Promise<string> {
  const db = await database();
  const rows = await db.pharmacySku.findMany({
    where: visibleTo(pharmacy),
    select: { externalId: true, price: true, stock: true, sku: { select: { id: true, pzn: true, displayName: true } } },
    orderBy: [{ sku: { displayName: "asc" } }, { id: "asc" }],
  });
  return assortmentCsv(
    rows.map((r) => ({ skuUid: r.sku.id, pzn: r.sku.pzn, displayName: r.sku.displayName, externalId: r.externalId, price: r.price, stock: r.stock })),
    separator,
  );
}
