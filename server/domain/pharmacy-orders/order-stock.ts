import type { Tx } from "@/server/db/client";
import { actorColumns, type Actor } from "@/server/domain/actor";
import { recordEvent } from "@/server/domain/events/outbox";
import type { LockedPharmacyOrder } from "./lock";

/** Why a pharmacy order moved stock (StockMovement.reason). */
export type OrderStockReason = "ORDER_COMPLETION" | "ORDER_CANCELLATION";

/** One pharmacy SKU's stock as a pharmacy order moved it. */
export type OrderStockMove = { pharmacySkuId: string; delta: number; stockAfter: number };

/**
 * Moves the stock of pharmacy SKUs for a pharmacy order the caller has locked: for each SKU (in a
 * fixed order, so concurrent orders never deadlock) under its row lock, the new stock from
 * `stockAfter(current, quantity)`, a stock movement naming the order, the reason and who, and a
 * pharmacy_sku_stock_updated. The one way an order's completion and its cancellation touch stock,
 * so both follow the same rules for movements and events.
 */
export async function moveOrderStock(
  tx: Tx,
  order: LockedPharmacyOrder,
  quantities: ReadonlyMap<string, number>,
  reason: OrderStockReason,
  actor: Actor,
  stockAfter: (current: number, quantity: number) => number,
): Promise<OrderStockMove[]> {
  const moves: OrderStockMove[] = [];
  for (const pharmacySkuId of [...quantities.keys()].sort()) {
    const [row] = await tx.$queryRaw<{ stock: number }[]>`
      SELECT "stock" FROM "PharmacySku" WHERE "id" = ${pharmacySkuId} FOR UPDATE`;
    const after = stockAfter(row.stock, quantities.get(pharmacySkuId)!);
    await tx.pharmacySku.update({ where: { id: pharmacySkuId }, data: { stock: after } });
    await tx.stockMovement.create({
      data: { pharmacySkuId, delta: after - row.stock, stockAfter: after, reason, pharmacyOrderId: order.id, ...actorColumns(actor) },
    });
    await recordEvent(tx, {
      type: "pharmacy_sku_stock_updated",
      organisationId: order.organisationId,
      pharmacyId: order.pharmacyId,
      subjectId: pharmacySkuId,
    });
    moves.push({ pharmacySkuId, delta: after - row.stock, stockAfter: after });
  }
  return moves;
}

/**
 * What the order's own stock movements have taken and not given back, per pharmacy SKU (the
 * ledger, not the items: a completion takes no more than there was).
 */
export async function stockHeldByOrder(tx: Tx, pharmacyOrderId: string): Promise<Map<string, number>> {
  const rows = await tx.$queryRaw<{ pharmacySkuId: string; taken: number }[]>`
    SELECT "pharmacySkuId", (-SUM("delta"))::int AS "taken" FROM "StockMovement"
     WHERE "pharmacyOrderId" = ${pharmacyOrderId}
     GROUP BY "pharmacySkuId" HAVING SUM("delta") < 0`;
  return new Map(rows.map((r) => [r.pharmacySkuId, r.taken]));
}
