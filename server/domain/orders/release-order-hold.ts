import { database, type Tx } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError } from "@/server/domain/errors";
import { createPharmacyOrder, pharmacyEmailNoticeTo } from "@/server/domain/pharmacy-orders/create-pharmacy-order";
import { routeFulfillmentToPharmacy } from "@/server/domain/pharmacy-orders/route-fulfillment";
import { PHARMACY_ORDER_STATUS } from "@/server/domain/pharmacy-orders/statuses";
import { progressOrderAfterPrescription } from "@/server/domain/prescriptions/order-progress";
import { isSignedStatus } from "@/server/domain/prescriptions/statuses";
import { ORDER_STATUS } from "./statuses";

type HeldOrder = {
  id: string;
  name: string;
  status: string;
  onHold: boolean;
  pharmacyId: string | null;
  pharmacyEmail: string | null;
  shippingCostAmount: number | null;
  shippingCostCurrency: string | null;
};

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
        SELECT o."id", o."name", o."status", o."onHold", o."pharmacyId", o."pharmacyEmail", o."shippingCostAmount", o."shippingCostCurrency"
          FROM "Order" o
         WHERE o."id" = ${orderId} AND o."organisationId" = ${organisationId}
           FOR UPDATE OF o`;
      if (!order) throw new NotFoundError();
      const outcome: ReleaseOutcome = { released: false, pharmacyOrderIds: [], unroutableFulfillmentIds: [] };
      if (!order.onHold && order.status !== ORDER_STATUS.paused) return outcome;
      outcome.released = true;
      // "started": progressOrderAfterPrescription below moves it on to where its fulfillments are.
      await tx.order.update({ where: { id: order.id }, data: { onHold: false, status: ORDER_STATUS.started } });
      for (const fulfillment of await heldFulfillments(tx, order.id)) {
        const opened = await openHeldFulfillment(tx, organisationId, order, fulfillment, actor);
        if (opened === "unroutable") outcome.unroutableFulfillmentIds.push(fulfillment.id);
        else if (opened) outcome.pharmacyOrderIds.push(opened);
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
        details: { pharmacyOrderIds: outcome.pharmacyOrderIds, unroutableFulfillmentIds: outcome.unroutableFulfillmentIds },
      });
      return outcome;
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}

/** The order's open fulfillments without a pharmacy order, with their live items (one relation per query: one connection). */
async function heldFulfillments(tx: Tx, orderId: string) {
  const fulfillments = await tx.fulfillment.findMany({
    where: { orderId, status: { not: "CANCELLED" }, pharmacyOrder: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, destinationPharmacyId: true, locationId: true },
  });
  const items = await tx.orderItem.findMany({
    where: { fulfillmentId: { in: fulfillments.map((f) => f.id) }, status: { not: "CANCELLED" } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: {
      id: true,
      fulfillmentId: true,
      skuId: true,
      quantity: true,
      totalPaidAmount: true,
      prescriptionId: true,
      fulfillmentMethod: true,
      sku: { select: { skipForPharmacyOrders: true } },
      prescription: { select: { status: true, deletedAt: true } },
    },
  });
  return fulfillments.map((f) => ({ ...f, items: items.filter((i) => i.fulfillmentId === f.id) }));
}

type HeldFulfillment = Awaited<ReturnType<typeof heldFulfillments>>[number];

/**
 * Routes one held fulfillment as intake does (destination pharmacy, else location, else the order's
 * pharmacy, else automatic selection) and opens its pharmacy order, which carries the order's
 * shipping cost when no pharmacy order of the order does yet. Null when it waits for a doctor or
 * nothing of it goes to a pharmacy; "unroutable" when no pharmacy can serve it.
 */
async function openHeldFulfillment(
  tx: Tx,
  organisationId: string,
  order: HeldOrder,
  fulfillment: HeldFulfillment,
  actor: Actor,
): Promise<string | null | "unroutable"> {
  const waitsForDoctor = fulfillment.items.some((i) => i.prescription && (i.prescription.deletedAt || !isSignedStatus(i.prescription.status)));
  if (waitsForDoctor) return null;
  const toPharmacy = fulfillment.items.filter((i) => !i.sku.skipForPharmacyOrders);
  if (toPharmacy.length === 0) return null;
  const located = fulfillment.locationId
    ? await tx.pharmacy.findFirst({ where: { organisationId, locationId: fulfillment.locationId }, select: { id: true } })
    : null;
  const routed = await routeFulfillmentToPharmacy(
    tx,
    organisationId,
    toPharmacy.map((i) => ({ skuId: i.skuId, quantity: i.quantity })),
    fulfillment.destinationPharmacyId ?? located?.id ?? order.pharmacyId,
  );
  if (!routed) return "unroutable";
  const shippingCarrier = await tx.pharmacyOrder.findFirst({
    where: { orderId: order.id, status: { not: PHARMACY_ORDER_STATUS.cancelled }, shippingCostsAmount: { not: null } },
    select: { id: true },
  });
  const carriesShipping = !shippingCarrier && order.shippingCostAmount !== null;
  const prescribed = toPharmacy.filter((i) => i.prescriptionId);
  return createPharmacyOrder(
    tx,
    {
      organisationId,
      orderId: order.id,
      fulfillmentId: fulfillment.id,
      pharmacyId: routed.pharmacyId,
      prescriptionId: prescribed[0]?.prescriptionId ?? null,
      prepaid: prescribed.reduce((sum, i) => sum + i.totalPaidAmount, 0),
      shippingCostsAmount: carriesShipping ? order.shippingCostAmount : null,
      shippingCostsCurrency: carriesShipping ? order.shippingCostCurrency : null,
      items: toPharmacy.map((i) => ({
        orderItemId: i.id,
        pharmacySkuId: routed.pharmacySkuBySku.get(i.skuId) ?? null,
        amount: i.quantity,
        totalPaidAmount: i.totalPaidAmount,
        fulfillmentMethod: i.fulfillmentMethod,
      })),
      noticeTo: pharmacyEmailNoticeTo(order, routed.pharmacyId),
    },
    actor,
  );
}
