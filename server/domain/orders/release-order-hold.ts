import { database, type Tx } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError } from "@/server/domain/errors";
import { openFulfillmentPharmacyOrder } from "@/server/domain/pharmacy-orders/open-fulfillment";
import { progressOrderAfterPrescription } from "@/server/domain/prescriptions/order-progress";
import { ORDER_STATUS } from "./statuses";

type HeldOrder = { id: string; name: string; status: string; onHold: boolean };

export type ReleaseOutcome = {
  /** False when the order was not on hold (released before, e.g. by another admin): nothing changed. */
  released: boolean;
  /** Pharmacy orders opened for fulfillments that could go to a pharmacy. */
  pharmacyOrderIds: string[];
  /** Fulfillments no pharmacy can serve now: they stay without a pharmacy order ("pharmacy not found"). */
  unroutableFulfillmentIds: string[];
};

/**
 * Releases an order created on hold (`on_hold: true` at intake: status "paused", nothing routed).
 * Releasing does what intake would have done without the hold, in one transaction under the
 * order's row lock: each open fulfillment without a pharmacy order whose items need no further
 * doctor decision (no prescription, or every prescription signed) is routed as at intake and gets
 * its pharmacy order (pharmacy_order_created); fulfillments whose prescription request still waits
 * for a doctor stay with the doctor (the order becomes "waiting for doctor"). A fulfillment no
 * pharmacy can serve now stays without a pharmacy order and the order reads "pharmacy not found",
 * as after a signed prescription (send-to-pharmacy.ts): the release itself is not refused, so the
 * admin home's "orders without a pharmacy" shows it. Releasing an order that is not on hold changes
 * nothing (a second admin's click). Another organisation's order is not found.
 */
export async function releaseOrderHold(organisationId: string, orderId: string, actor: Actor): Promise<ReleaseOutcome> {
  const db = await database();
  return db.$transaction(
    async (tx) => {
      const [order] = await tx.$queryRaw<HeldOrder[]>`
        SELECT o."id", o."name", o."status", o."onHold"
          FROM "Order" o
         WHERE o."id" = ${orderId} AND o."organisationId" = ${organisationId}
           FOR UPDATE OF o`;
      if (!order) throw new NotFoundError();
      const outcome: ReleaseOutcome = { released: false, pharmacyOrderIds: [], unroutableFulfillmentIds: [] };
      if (!order.onHold && order.status !== ORDER_STATUS.paused) return outcome;
      outcome.released = true;
      // "started": progressOrderAfterPrescription below moves it on to where its fulfillments are.
      await tx.order.update({ where: { id: order.id }, data: { onHold: false, status: ORDER_STATUS.started } });
      // Routed as at intake; a fulfillment whose prescription waits for a doctor stays with the doctor.
      for (const fulfillment of await heldFulfillments(tx, order.id)) {
        const opened = await openFulfillmentPharmacyOrder(tx, fulfillment.id, { by: "intake" }, actor);
        if (opened.opened) outcome.pharmacyOrderIds.push(opened.pharmacyOrderId);
        else if (opened.reason === "unroutable") outcome.unroutableFulfillmentIds.push(fulfillment.id);
      }
      await progressOrderAfterPrescription(tx, order.id);
      if (outcome.unroutableFulfillmentIds.length > 0) {
        const now = await tx.order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true } });
        if (now.status !== ORDER_STATUS.waitingForDoctor) {
          await tx.order.update({ where: { id: order.id }, data: { status: ORDER_STATUS.pharmacyNotFound } });
        }
      }
      const routed = outcome.pharmacyOrderIds.length;
      const stranded = outcome.unroutableFulfillmentIds.length;
      await recordAuditEvent(tx, organisationId, actor, {
        entity: "order",
        entityId: order.id,
        action: "released",
        summary:
          `Order "${order.name}" released from hold` +
          (routed ? `; ${routed} pharmacy order${routed === 1 ? "" : "s"} opened` : "") +
          (stranded ? `; ${stranded} fulfillment${stranded === 1 ? "" : "s"} found no pharmacy` : ""),
        values: { name: order.name, opened: routed, stranded },
        details: { pharmacyOrderIds: outcome.pharmacyOrderIds, unroutableFulfillmentIds: outcome.unroutableFulfillmentIds },
      });
      return outcome;
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}

/** The order's open fulfillments without a pharmacy order, oldest first. */
function heldFulfillments(tx: Tx, orderId: string) {
  return tx.fulfillment.findMany({
    where: { orderId, status: { not: "CANCELLED" }, pharmacyOrder: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true },
  });
}
