import { database, Prisma, type Tx } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { ORDER_STATUS } from "@/server/domain/orders/statuses";
import { refreshProjectedPayouts } from "@/server/domain/payouts/route-payouts";
import { openFulfillmentPharmacyOrder } from "@/server/domain/pharmacy-orders/open-fulfillment";
import { PHARMACY_ORDER_CHANGE, recordPharmacyOrderChange } from "@/server/domain/pharmacy-orders/lock";
import { isLivePharmacyOrderStatus } from "@/server/domain/pharmacy-orders/statuses";
import { log } from "@/server/log";
import { ORDER_STATUS_AFTER_DOCTOR, progressOrderAfterPrescription } from "./order-progress";
import { isSignedStatus } from "./statuses";

const SYSTEM: Actor = { type: "SYSTEM" };

export type SendOutcome = {
  /** Pharmacy orders created for fulfillments that waited for this prescription. */
  created: string[];
  /** Existing pharmacy orders that got the prescription attached. */
  attached: string[];
  /** Fulfillments no pharmacy can serve now (left waiting; the order shows "pharmacy not found"). */
  unroutable: string[];
};

type Fulfillment = Awaited<ReturnType<typeof loadFulfillments>>[number];

/**
 * The "pharmacy_manager.send_prescription" task: a signed prescription goes to the pharmacy of each
 * fulfillment whose items reference it. A fulfillment that waited for it (open, no pharmacy order,
 * order not on hold, every prescription of its items signed) is routed as at intake and gets its
 * pharmacy order with the prescription, its doctor and `prepaid` (pharmacy_order_created); its order
 * leaves "waiting for doctor". A pharmacy order that exists without the prescription gets it
 * attached (pharmacy_order_updated), so the pharmacy receives doctor_data and prescription_file.
 * Idempotent: a second run finds nothing to do and changes nothing. A fulfillment no pharmacy can
 * serve stays without a pharmacy order and is logged; running the task again routes it then.
 */
export async function sendPrescriptionToPharmacy(prescriptionId: string): Promise<SendOutcome> {
  const db = await database();
  const outcome: SendOutcome = { created: [], attached: [], unroutable: [] };
  const prescription = await db.prescription.findUnique({
    where: { id: prescriptionId },
    select: { id: true, organisationId: true, status: true, deletedAt: true },
  });
  if (!prescription || prescription.deletedAt || !isSignedStatus(prescription.status)) {
    log.warn("prescription not sent to a pharmacy: not found, deleted or not signed", { prescriptionId, status: prescription?.status });
    return outcome;
  }
  const orders = await db.orderItem.findMany({
    where: { prescriptionId, fulfillment: { status: { not: "CANCELLED" } } },
    select: { orderId: true },
    distinct: ["orderId"],
  });
  if (orders.length === 0) return outcome;
  const orderIds = orders.map((o) => o.orderId).sort();

  await db.$transaction(
    async (tx) => {
      // The orders' locks serialise this with fulfillment cancellation, order changes and another run.
      await tx.$queryRaw`SELECT "id" FROM "Order" WHERE "id" IN (${Prisma.join(orderIds)}) ORDER BY "id" FOR UPDATE`;
      const progressed = new Set<string>();
      for (const fulfillment of await loadFulfillments(tx, prescriptionId, orderIds)) {
        const order = fulfillment.order;
        if (order.onHold || order.status === ORDER_STATUS.paused) continue;
        if (fulfillment.pharmacyOrder) {
          if (await attachPrescription(tx, fulfillment, prescriptionId)) outcome.attached.push(fulfillment.pharmacyOrder.id);
          continue;
        }
        const opened = await openFulfillmentPharmacyOrder(tx, fulfillment.id, { by: "intake" }, SYSTEM, { prescriptionId });
        if (!opened.opened && opened.reason === "waits-for-doctor") continue;
        progressed.add(order.id);
        if (opened.opened) {
          outcome.created.push(opened.pharmacyOrderId);
        } else if (opened.reason === "unroutable") {
          outcome.unroutable.push(fulfillment.id);
          log.warn("no pharmacy can serve a fulfillment with a signed prescription; it stays waiting", {
            prescriptionId,
            orderId: order.id,
            fulfillmentId: fulfillment.id,
          });
        }
      }
      for (const orderId of orderIds) {
        const status = (await tx.order.findUniqueOrThrow({ where: { id: orderId }, select: { status: true } })).status;
        const stale = status === ORDER_STATUS.waitingForDoctor || status === ORDER_STATUS_AFTER_DOCTOR.pharmacyNotFound;
        if (progressed.has(orderId) || stale) {
          await progressOrderAfterPrescription(tx, orderId);
        }
      }
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
  return outcome;
}

/** The open fulfillments of these orders whose items reference the prescription, with their active pharmacy orders and orders. */
async function loadFulfillments(tx: Tx, prescriptionId: string, orderIds: string[]) {
  const fulfillments = await tx.fulfillment.findMany({
    where: { orderId: { in: orderIds }, status: { not: "CANCELLED" }, items: { some: { prescriptionId } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: {
      id: true,
      orderId: true,
      pharmacyOrder: { select: { id: true, organisationId: true, pharmacyId: true, prescriptionId: true, status: true } },
    },
  });
  // One relation per query: a transaction has one connection, which sibling relation reads would queue on.
  const orders = await tx.order.findMany({ where: { id: { in: orderIds } }, select: { id: true, status: true, onHold: true } });
  const orderById = new Map(orders.map((o) => [o.id, o]));
  return fulfillments.map((f) => ({ ...f, order: orderById.get(f.orderId)! }));
}

/** The prescription items' amount paid: what the patient prepaid for the pharmacy order's prescription items. */
const prepaidOf = (items: { totalPaidAmount: number; prescriptionId: string | null }[]) =>
  items.reduce((sum, i) => sum + (i.prescriptionId ? i.totalPaidAmount : 0), 0);

/** A live pharmacy order without a prescription gets this one; returns whether it changed. */
async function attachPrescription(tx: Tx, fulfillment: Fulfillment, prescriptionId: string): Promise<boolean> {
  const po = fulfillment.pharmacyOrder!;
  if (po.prescriptionId || !isLivePharmacyOrderStatus(po.status)) return false;
  const items = await tx.pharmacyOrderItem.findMany({
    where: { pharmacyOrderId: po.id },
    select: { totalPaidAmount: true, orderItem: { select: { prescriptionId: true } } },
  });
  const prepaid = prepaidOf(items.map((i) => ({ totalPaidAmount: i.totalPaidAmount, prescriptionId: i.orderItem.prescriptionId })));
  await tx.pharmacyOrder.update({ where: { id: po.id }, data: { prescriptionId, prepaid } });
  await refreshProjectedPayouts(tx, po.id);
  await recordPharmacyOrderChange(tx, [po], PHARMACY_ORDER_CHANGE.prescriptionAttached, SYSTEM);
  return true;
}
