/** The portal's shapes of pharmacy SKUs, stock movements and assortment imports: camelCase, uids, dates as Unix seconds. */
import type { Message } from "@/i18n/error-text";
import type { ImportedSku, ImportPreview } from "@/server/domain/catalogue/import-assortment";
import type { StockMovementEntry } from "@/server/domain/catalogue/pharmacy-skus";
import type { PharmacySkuWithSku } from "@/server/api/external-pharmacy/pharmacy-sku.presenters";
import { unix } from "@/server/wire/format";

export const presentPortalPharmacySku = (row: PharmacySkuWithSku) => ({
  uid: row.id,
  externalId: row.externalId,
  /** Cents. */
  price: row.price,
  stock: row.stock,
  pharmacyUid: row.pharmacyId,
  sku: { uid: row.sku.id, displayName: row.sku.displayName, pzn: row.sku.pzn, digital: row.sku.digital, productDisplayName: row.sku.product.displayName },
  updatedAt: unix(row.updatedAt),
});

const REASONS = { STOCK_UPDATE: "manual_change", ORDER_COMPLETION: "order_completion", ORDER_CANCELLATION: "order_cancellation", INITIAL: "initial" } as const;

export const presentStockMovement = (m: StockMovementEntry) => ({
  uid: m.id,
  delta: m.delta,
  stockAfter: m.stockAfter,
  reason: REASONS[m.reason],
  pharmacyOrder: m.pharmacyOrder ? { uid: m.pharmacyOrder.id, name: m.pharmacyOrder.name } : null,
  by: { type: m.actor.type, uid: m.actor.id, name: m.actor.name },
  createdAt: unix(m.createdAt),
});

const presentImportedSku = (sku: ImportedSku) => ({ uid: sku.id, displayName: sku.displayName, pzn: sku.pzn });

/**
 * An import preview row by row, each error in the caller's words: what the row named, its outcome,
 * and for a change the values before and after (cents for the price).
 */
export function presentImportPreview(preview: ImportPreview, word: (message: Message) => string) {
  if (!preview.ok) return { ok: false as const, error: word(preview.error) };
  return {
    ok: true as const,
    counts: preview.counts,
    rows: preview.rows.map((row) => ({
      line: row.line,
      outcome: row.outcome,
      sku: row.sku ? presentImportedSku(row.sku) : null,
      reference: row.outcome === "error" ? row.reference : row.sku.id,
      before: row.outcome === "update" ? row.before : null,
      after: row.outcome === "update" || row.outcome === "create" ? row.after : null,
      errors: row.outcome === "error" ? row.errors.map(word) : [],
    })),
  };
}
