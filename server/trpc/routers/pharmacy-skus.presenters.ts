/** The portal's shapes of pharmacy SKUs and stock movements: camelCase, uids, dates as Unix seconds. */
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
