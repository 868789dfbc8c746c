import type { Tx } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { PHARMACY_ORDER_STATUS } from "./statuses";
import { ORDER_STATUS } from "@/server/domain/orders/statuses";

/**
 * Keeps the order's status in step with its fulfilments once they are with pharmacies: completed
 * when every live fulfilment's pharmacy order is completed, cancelled when every fulfilment is
 * cancelled, "pharmacy not found" while an open fulfilment with items for a pharmacy has no active
 * pharmacy order (no pharmacy could take it, or its pharmacy gave it back and none other could:
 * docs/decisions/intake.md#re-routing). An order that waits for a doctor or is paused keeps that status.
 */
export async function refreshOrderStatus(tx: Tx, orderId: string): Promise<void> {
  // One statement rather than a nested Prisma read of three (it follows every status change).
  const [order] = await tx.$queryRaw<{ status: string; fulfillments: { status: string; pharmacyOrderStatus: string | null; forPharmacy: boolean }[] }[]>`
    SELECT o."status",
           (SELECT coalesce(json_agg(json_build_object(
                     'status', f."status", 'pharmacyOrderStatus', po."status",
                     'forPharmacy', EXISTS (SELECT 1 FROM "OrderItem" i JOIN "Sku" s ON s."id" = i."skuId"
                                             WHERE i."fulfillmentId" = f."id" AND i."status" <> 'CANCELLED' AND NOT s."skipForPharmacyOrders"))), '[]'::json)
              FROM "Fulfillment" f LEFT JOIN "PharmacyOrder" po ON po."activeFulfillmentId" = f."id"
             WHERE f."orderId" = o."id") AS "fulfillments"
      FROM "Order" o WHERE o."id" = ${orderId}`;
  if (!order) throw new NotFoundError();
  if (order.status === ORDER_STATUS.paused || order.status === ORDER_STATUS.waitingForDoctor) return;
  const live = order.fulfillments.filter((f) => f.status !== "CANCELLED" && f.pharmacyOrderStatus !== PHARMACY_ORDER_STATUS.cancelled);
  let status: string = ORDER_STATUS.waitingForPharmacy;
  if (live.length === 0) status = ORDER_STATUS.cancelled;
  else if (live.some((f) => f.pharmacyOrderStatus === null && f.forPharmacy)) status = ORDER_STATUS.pharmacyNotFound;
  else if (live.every((f) => f.pharmacyOrderStatus === PHARMACY_ORDER_STATUS.completed)) status = ORDER_STATUS.completed;
  else if (live.every((f) => f.pharmacyOrderStatus === null)) status = ORDER_STATUS.started;
  if (status !== order.status) {
    await tx.$executeRaw`UPDATE "Order" SET "status" = ${status}, "updatedAt" = clock_timestamp() WHERE "id" = ${orderId}`;
  }
}

const OVERALL_STATUS = {
  pending: "pending",
  inProgress: "in_progress",
  onHold: "on_hold",
  completed: "completed",
  cancelled: "cancelled",
} as const;

/**
 * overall_status, one word for the whole order across its fulfilments: cancelled (every fulfilment
 * cancelled, also after a declined prescription), completed (every live fulfilment's pharmacy order
 * completed), on_hold (the order is paused or a pharmacy order is on hold), in_progress (a pharmacy
 * is working on it or part is completed), pending (otherwise: waiting for a doctor or a pharmacy).
 */
export function overallStatus(order: {
  status: string;
  onHold: boolean;
  fulfillments: { status: string; pharmacyOrder: { status: string } | null }[];
}): string {
  const allCancelled = order.fulfillments.length > 0 && order.fulfillments.every((f) => f.status === "CANCELLED");
  if (order.status === ORDER_STATUS.cancelled || allCancelled) return OVERALL_STATUS.cancelled;
  if (order.status === ORDER_STATUS.completed) return OVERALL_STATUS.completed;
  const working = order.fulfillments
    .filter((f) => f.status !== "CANCELLED")
    .map((f) => f.pharmacyOrder?.status)
    .filter((s): s is string => Boolean(s));
  if (order.onHold || order.status === ORDER_STATUS.paused || working.includes(PHARMACY_ORDER_STATUS.onHold)) {
    return OVERALL_STATUS.onHold;
  }
  const started = [
    PHARMACY_ORDER_STATUS.pendingReview,
    PHARMACY_ORDER_STATUS.inProgress,
    PHARMACY_ORDER_STATUS.readyForPickup,
    PHARMACY_ORDER_STATUS.completed,
  ] as string[];
  if (working.some((s) => started.includes(s))) return OVERALL_STATUS.inProgress;
  return OVERALL_STATUS.pending;
}
