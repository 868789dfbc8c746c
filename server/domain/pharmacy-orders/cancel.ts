import type { Tx } from "@/server/db/client";
import { routeWaitingWhenStockArrives } from "@/server/domain/pharmacy-orders/waiting-fulfillments";
import type { Actor } from "@/server/domain/actor";
import { settlePayoutsOfCancelledOrder } from "@/server/domain/payouts/cancelled-order-payouts";
import { historyInsertSql, PHARMACY_ORDER_CHANGE, recordCancelledStatus, type LockedPharmacyOrder } from "./lock";
import { moveOrderStock, stockHeldByOrder } from "./order-stock";
import { CANCELLATION_COMMENT } from "./statuses";

/** What only the person cancelling knows: whether a completed order's goods came back to the pharmacy (default: no). */
export type CancelOptions = { goodsReturned?: boolean };

/**
 * Cancels a pharmacy order the caller has locked, in the caller's transaction: status cancelled
 * (history, pharmacy_order_updated, the order's status), and what a completion did is undone as
 * far as the service can (docs/decisions/pharmacy-orders.md#cancellation-after-completion):
 * - the stock the order's completion took stays taken: the goods left the pharmacy. Only when the
 *   pharmacist says they came back (`goodsReturned`, a choice in the portal's confirmation) does it
 *   go back to its pharmacy SKUs, each with a stock movement (ORDER_CANCELLATION, who) and a
 *   pharmacy_sku_stock_updated, as any stock change;
 * - its routed payouts are flagged for review (the route exists at the provider; what to do with
 *   the money is a person's decision), its projected ones removed;
 * - each gets a history entry, so the order page says what happened.
 * The one place for this rule: PATCH …/status, the portal's single and bulk status changes, the
 * Management fulfillment cancel and the automatic status check all cancel through it. It runs
 * under the order's row lock, and a cancelled order is final, so stock goes back at most once.
 */
export async function cancelLockedPharmacyOrder(
  tx: Tx,
  order: LockedPharmacyOrder,
  actor: Actor,
  comment: string | null = null,
  options: CancelOptions = {},
): Promise<void> {
  await recordCancelledStatus(tx, order, actor, comment);

  const held = await stockHeldByOrder(tx, order.id);
  if (held.size > 0 && options.goodsReturned) {
    const moves = await moveOrderStock(tx, order, held, "ORDER_CANCELLATION", actor, (stock, quantity) => stock + quantity);
    const skus = await tx.pharmacySku.findMany({
      where: { id: { in: moves.map((m) => m.pharmacySkuId) } },
      select: { id: true, sku: { select: { displayName: true } } },
    });
    const names = new Map(skus.map((s) => [s.id, s.sku.displayName]));
    const detail = moves.map((m) => CANCELLATION_COMMENT.stockMove(names.get(m.pharmacySkuId) ?? m.pharmacySkuId, m.delta, m.stockAfter)).join("; ");
    await recordHistoryNote(tx, order, PHARMACY_ORDER_CHANGE.stockReturned, actor, CANCELLATION_COMMENT.goodsReturned(detail));
    await routeWaitingWhenStockArrives(tx, order.organisationId);
  } else if (held.size > 0) {
    await recordHistoryNote(tx, order, PHARMACY_ORDER_CHANGE.stockKept, actor, CANCELLATION_COMMENT.goodsKept);
  }

  const flagged = await settlePayoutsOfCancelledOrder(tx, order.id, new Date());
  if (flagged.length > 0) {
    const rows = flagged.map((p) => p.componentType).join(", ");
    await recordHistoryNote(
      tx,
      order,
      PHARMACY_ORDER_CHANGE.payoutsFlaggedForReview,
      actor,
      CANCELLATION_COMMENT.payoutsFlagged(flagged.length, rows),
    );
  }
}

/** A history entry of the cancellation's consequences, stamped after its status entry (statement clock). */
async function recordHistoryNote(tx: Tx, order: LockedPharmacyOrder, label: string, actor: Actor, comment: string): Promise<void> {
  await tx.$executeRaw`${historyInsertSql(order.id, null, label, actor, comment)}`;
}
