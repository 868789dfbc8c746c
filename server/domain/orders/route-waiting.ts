import { database } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { openFulfillmentPharmacyOrder } from "@/server/domain/pharmacy-orders/open-fulfillment";
import { refreshOrderStatus } from "@/server/domain/pharmacy-orders/order-status";
import { ROUTE_WAITING_TASK } from "@/server/domain/pharmacy-orders/waiting-fulfillments";
import { enqueueTask } from "@/server/domain/tasks/enqueue";
import { log } from "@/server/log";
import { ORDER_STATUS } from "./statuses";

const SYSTEM: Actor = { type: "SYSTEM" };

/** Fulfillments routed per task run; a run that reaches it asks for another. */
const BATCH = 200;

/**
 * The "orders.route_waiting" task: each open fulfillment of the organisation that waits for a
 * pharmacy (Fulfillment.needsPharmacy, order neither on hold nor with a doctor) and whose pharmacy
 * nobody chose by hand (only automatic routings were cancelled before, or none) is routed as at
 * intake (openFulfillmentPharmacyOrder: never to a pharmacy that cancelled it), oldest first, each
 * in its own transaction under its order's row lock; the order's status follows. One that still
 * finds no pharmacy keeps waiting. Idempotent: a second run finds the routed ones gone from the list.
 * Returns the pharmacy orders opened.
 */
export async function routeWaitingFulfillments(organisationId: string): Promise<string[]> {
  const db = await database();
  const waiting = await db.$queryRaw<{ id: string; orderId: string }[]>`
    SELECT f."id", f."orderId" FROM "Fulfillment" f JOIN "Order" o ON o."id" = f."orderId"
     WHERE f."needsPharmacy" AND o."organisationId" = ${organisationId}
       AND o."onHold" = false AND o."status" NOT IN (${ORDER_STATUS.paused}, ${ORDER_STATUS.waitingForDoctor})
       AND NOT EXISTS (SELECT 1 FROM "PharmacyOrder" po WHERE po."fulfillmentId" = f."id" AND po."routing" <> 'AUTOMATIC')
     ORDER BY f."createdAt", f."id" LIMIT ${BATCH}`;
  const opened: string[] = [];
  for (const fulfillment of waiting) {
    const pharmacyOrderId = await db.$transaction(
      async (tx) => {
        const [order] = await tx.$queryRaw<{ onHold: boolean; status: string }[]>`
          SELECT "onHold", "status" FROM "Order" WHERE "id" = ${fulfillment.orderId} FOR UPDATE`;
        // Re-read under the lock: routed, cancelled or put on hold meanwhile.
        const still = await tx.fulfillment.findFirst({
          where: { id: fulfillment.id, needsPharmacy: true },
          select: { id: true },
        });
        if (!order || order.onHold || order.status === ORDER_STATUS.paused || !still) return null;
        const outcome = await openFulfillmentPharmacyOrder(tx, fulfillment.id, { by: "intake" }, SYSTEM);
        if (!outcome.opened) return null;
        await refreshOrderStatus(tx, fulfillment.orderId);
        return outcome.pharmacyOrderId;
      },
      { timeout: 30_000, maxWait: 30_000 },
    );
    if (pharmacyOrderId) opened.push(pharmacyOrderId);
  }
  if (opened.length > 0) log.info("waiting fulfillments routed after stock arrived", { organisationId, routed: opened.length, waiting: waiting.length });
  // A full batch that routed some: the rest next (one that routed none would only find the same again).
  if (waiting.length === BATCH && opened.length > 0) {
    await db.$transaction((tx) => enqueueTask(tx, ROUTE_WAITING_TASK, { organisationId }));
  }
  return opened;
}
