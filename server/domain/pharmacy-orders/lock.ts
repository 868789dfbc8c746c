import type { Tx } from "@/server/db/client";
import { actorColumns, type Actor } from "@/server/domain/actor";
import { NotFoundError } from "@/server/domain/errors";
import { recordEvent } from "@/server/domain/events/outbox";
import { refreshOrderStatus } from "@/server/domain/orders/order-status";

export type LockedPharmacyOrder = { id: string; status: string; organisationId: string; pharmacyId: string; orderId: string };

/**
 * Locks a pharmacy order of `pharmacyId` for the rest of the transaction (FOR UPDATE), so that
 * concurrent commands on one order run one after the other and each sees the other's result.
 * Another pharmacy's order is not found.
 */
export async function lockPharmacyOrder(tx: Tx, pharmacyId: string, pharmacyOrderId: string): Promise<LockedPharmacyOrder> {
  const [row] = await tx.$queryRaw<LockedPharmacyOrder[]>`
    SELECT "id", "status", "organisationId", "pharmacyId", "orderId" FROM "PharmacyOrder"
    WHERE "id" = ${pharmacyOrderId} AND "pharmacyId" = ${pharmacyId}
    FOR UPDATE`;
  if (!row) throw new NotFoundError();
  return row;
}

/** Sets the status, writes the history entry and records pharmacy_order_updated, in the caller's transaction. */
export async function recordStatusChange(
  tx: Tx,
  order: LockedPharmacyOrder,
  toStatus: string,
  actor: Actor,
  comment: string | null = null,
): Promise<void> {
  await tx.pharmacyOrder.update({ where: { id: order.id }, data: { status: toStatus } });
  await tx.pharmacyOrderHistory.create({
    data: { pharmacyOrderId: order.id, fromStatus: order.status, toStatus, comment, ...actorColumns(actor) },
  });
  await recordEvent(tx, { type: "pharmacy_order_updated", organisationId: order.organisationId, pharmacyId: order.pharmacyId, subjectId: order.id });
  await refreshOrderStatus(tx, order.orderId);
}
