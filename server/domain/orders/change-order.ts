import { errorText } from "@/i18n/error-text";
import { database, type Tx } from "@/server/db/client";
import { isUniqueViolation } from "@/server/db/errors";
import { actorColumns, type Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { ConflictError, FieldErrorCollector, NotFoundError } from "@/server/domain/errors";
import { recordPrescriptionUpdated } from "@/server/domain/events/prescription-events";
import { cancelLockedPharmacyOrder } from "@/server/domain/pharmacy-orders/cancel";
import { pharmacyOrderStatusText } from "@/server/domain/pharmacy-orders/status-text";
import { lockPharmacyOrder, recordOrderChangeOnPharmacyOrders } from "@/server/domain/pharmacy-orders/lock";
import { FINAL_PHARMACY_ORDER_STATUSES, PHARMACY_ORDER_STATUS } from "@/server/domain/pharmacy-orders/statuses";
import { refreshProjectedPayouts } from "@/server/domain/payouts/route-payouts";
import { progressOrderAfterPrescription } from "@/server/domain/prescriptions/order-progress";
import { AWAITING_DOCTOR_STATUSES, PRESCRIPTION_STATUS, PRESCRIPTION_SYSTEM_NOTE, storedSpellings } from "@/server/domain/prescriptions/statuses";
import { addFulfillment, resolveReferences } from "./create-order";
import { validateInlinePrescriptions } from "./inline-prescriptions";
import { redeemPrescriptions } from "./redeem-prescriptions";
import { type Address, type FulfillmentIntake, type Money } from "./intake";
import { ORDER_STATUS } from "./statuses";
import { refreshOrderStatus } from "@/server/domain/pharmacy-orders/order-status";

type LockedOrder = {
  id: string;
  name: string;
  status: string;
  onHold: boolean;
  doctorId: string | null;
  pharmacyId: string | null;
  pharmacyEmail: string | null;
  patientId: string;
};

/** Locks an order of the organisation by the caller's external_id, so changes to one order serialise. */
async function lockOrder(tx: Tx, organisationId: string, externalId: string): Promise<LockedOrder> {
  const [order] = await tx.$queryRaw<LockedOrder[]>`
    SELECT "id", "name", "status", "onHold", "doctorId", "pharmacyId", "pharmacyEmail", "patientId" FROM "Order"
    WHERE "organisationId" = ${organisationId} AND "externalId" = ${externalId}
    FOR UPDATE`;
  if (!order) throw new NotFoundError();
  return order;
}

/**
 * Adds a fulfillment to an existing order: the same checks and routing as at intake. Fulfillments
 * are immutable, so an external_id the order already has is a conflict (409); item external_ids
 * stay unique across the whole order.
 */
export async function addFulfillmentToOrder(
  organisationId: string,
  orderExternalId: string,
  fulfillment: FulfillmentIntake,
  actor: Actor,
): Promise<string> {
  const db = await database();
  const existing = await db.order.findUnique({
    where: { organisationId_externalId: { organisationId, externalId: orderExternalId } },
    select: {
      id: true,
      additionalDetails: true,
      shopOrder: { select: { name: true, shop: true } },
      patient: { select: { id: true, shopCustomers: { select: { shopId: true, shopCustomerId: true } } } },
      fulfillments: { select: { externalId: true } },
      items: { select: { externalId: true } },
    },
  });
  if (!existing?.shopOrder) throw new NotFoundError();
  if (existing.fulfillments.some((f) => f.externalId === fulfillment.externalId)) throw fulfillmentExists();
  const errors = new FieldErrorCollector();
  const taken = new Set(existing.items.map((i) => i.externalId));
  fulfillment.items.forEach((item, i) => {
    if (taken.has(item.externalId)) errors.add(["items", i, "external_id"], "Item external_id values must be unique across the whole order.");
  });
  errors.throwIfAny();

  const shop = existing.shopOrder.shop;
  const customerId = existing.patient.shopCustomers.find((c) => c.shopId === shop.id)?.shopCustomerId ?? "";
  const resolved = await resolveReferences(db, organisationId, shop, [fulfillment], {
    customer: { id: customerId },
    additionalDetails: existing.additionalDetails,
    fieldPrefix: () => [],
  });
  const [inline] = await validateInlinePrescriptions(db, organisationId, [fulfillment], () => []);
  try {
    return await db.$transaction(async (tx) => {
      const order = await lockOrder(tx, organisationId, orderExternalId);
      // A concurrent duplicate committed while this one waited for the order: 409 before its items
      // can make it a redemption refusal.
      const taken = await tx.$queryRaw<unknown[]>`SELECT 1 FROM "Fulfillment" WHERE "orderId" = ${order.id} AND "externalId" = ${fulfillment.externalId}`;
      if (taken.length > 0) throw fulfillmentExists();
      const [inlinePlan] = await redeemPrescriptions(tx, {
        organisationId,
        patientId: existing.patient.id,
        fulfillments: [fulfillment],
        resolvedItems: resolved.items,
        inline: [inline],
        fieldPrefix: () => [],
      });
      const added = await addFulfillment(tx, {
        organisationId,
        orderId: order.id,
        fulfillment,
        resolvedItems: resolved.items[0],
        inlinePrescriptions: inline,
        inlinePlan,
        explicitPharmacyId: resolved.fulfillmentPharmacyIds[0] ?? order.pharmacyId,
        doctorId: order.doctorId,
        patientId: existing.patient.id,
        route: !order.onHold,
        shippingCost: null,
        notice: { pharmacyEmail: order.pharmacyEmail, pharmacyId: order.pharmacyId },
        actor,
      });
      if (resolved.items[0].some((i) => i.needsDoctor) && !order.onHold) {
        await tx.order.update({ where: { id: order.id }, data: { status: ORDER_STATUS.waitingForDoctor } });
      } else {
        // Routed, or no pharmacy could take it: the order reads "waiting for pharmacy" or "pharmacy not found".
        await tx.order.update({ where: { id: order.id }, data: { updatedAt: new Date() } });
        await refreshOrderStatus(tx, order.id);
      }
      await recordAuditEvent(tx, organisationId, actor, {
        entity: "order",
        entityId: order.id,
        action: "fulfillment added",
        summary: `Fulfillment "${fulfillment.externalId}" added to order "${order.name}"${added.routed ? " and routed to a pharmacy" : ""}`,
        values: { externalId: fulfillment.externalId, order: order.name, routed: String(added.routed) },
        details: { fulfillmentExternalId: fulfillment.externalId, itemCount: fulfillment.items.length },
      });
      return order.id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw fulfillmentExists();
    throw error;
  }
}

const fulfillmentExists = () => new ConflictError("Fulfillment already exists on this order: fulfillments are immutable.");

export type OrderChanges = {
  deliveryAddress?: Address;
  invoiceAddress?: Address;
  priority?: number;
  customerEmail?: string | null;
  shippingCost?: Money | null;
};

/**
 * Updates the item-free fields of an order. Pharmacy orders read addresses and priority from the
 * order, so each live pharmacy order of it gets a pharmacy_order_updated; a new shipping cost
 * moves to the pharmacy order that carries the order's shipping, unless it is completed.
 */
export async function updateOrder(organisationId: string, orderExternalId: string, changes: OrderChanges, actor: Actor): Promise<string> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const order = await lockOrder(tx, organisationId, orderExternalId);
    await tx.order.update({
      where: { id: order.id },
      data: {
        deliveryAddress: changes.deliveryAddress,
        invoiceAddress: changes.invoiceAddress,
        priority: changes.priority,
        customerEmail: changes.customerEmail,
        ...(changes.shippingCost !== undefined
          ? { shippingCostAmount: changes.shippingCost?.amount ?? null, shippingCostCurrency: changes.shippingCost?.currency ?? null }
          : {}),
      },
    });
    if (changes.shippingCost !== undefined) {
      const carrier = await tx.pharmacyOrder.findFirst({
        where: { orderId: order.id, status: { notIn: [...FINAL_PHARMACY_ORDER_STATUSES] }, shippingCostsAmount: { not: null } },
        select: { id: true },
      });
      if (carrier) {
        await tx.pharmacyOrder.update({
          where: { id: carrier.id },
          data: { shippingCostsAmount: changes.shippingCost?.amount ?? 0, shippingCostsCurrency: changes.shippingCost?.currency ?? null },
        });
        await refreshProjectedPayouts(tx, carrier.id);
      }
    }
    // Each live pharmacy order: updatedAt, pharmacy_order_updated, and who changed it in its history.
    await recordOrderChangeOnPharmacyOrders(tx, order.id, actor);
    // The names of the fields, not their values: addresses and e-mails are patient data.
    const fields = Object.entries(changes).flatMap(([field, value]) => (value === undefined ? [] : [field]));
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "order",
      entityId: order.id,
      action: "updated",
      summary: `Order "${order.name}" updated: ${fields.join(", ") || "nothing"}`,
      values: { name: order.name },
      details: { fields },
    });
    return order.id;
  });
}

/** Pharmacy order statuses in which the pharmacy has not started preparing: a fulfillment can still be cancelled. */
const CANCELLABLE_PHARMACY_STATUSES: string[] = [
  PHARMACY_ORDER_STATUS.waitingForPharmacy,
  PHARMACY_ORDER_STATUS.pendingReview,
  PHARMACY_ORDER_STATUS.onHold,
];

/**
 * Cancels a fulfillment while it is cancellable: open, and its pharmacy order (if any) not yet in
 * preparation (waiting for pharmacy, pending review or on-hold). Its items, its pharmacy order and
 * a prescription request that waits for a doctor are cancelled with it. Cancelling a cancelled
 * fulfillment again changes nothing; one that is no longer cancellable is a conflict (409).
 */
export async function cancelFulfillment(
  organisationId: string,
  orderExternalId: string,
  fulfillmentExternalId: string,
  actor: Actor,
): Promise<string> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const order = await lockOrder(tx, organisationId, orderExternalId);
    const fulfillment = await tx.fulfillment.findUnique({
      where: { orderId_externalId: { orderId: order.id, externalId: fulfillmentExternalId } },
      select: { id: true, status: true, pharmacyOrder: { select: { id: true, pharmacyId: true } }, items: { select: { prescriptionId: true } } },
    });
    if (!fulfillment) throw new NotFoundError();
    if (fulfillment.status === "CANCELLED") return order.id;
    if (fulfillment.pharmacyOrder) {
      const po = await lockPharmacyOrder(tx, fulfillment.pharmacyOrder.pharmacyId, fulfillment.pharmacyOrder.id);
      if (!CANCELLABLE_PHARMACY_STATUSES.includes(po.status)) {
        throw new ConflictError(errorText("orders.fulfillmentNotCancellable", { status: pharmacyOrderStatusText(po.status) }));
      }
      // An order completed once and reopened (on-hold) gets its stock back and its payouts flagged.
      await cancelLockedPharmacyOrder(tx, po, actor);
    }
    const now = new Date();
    await tx.fulfillment.update({ where: { id: fulfillment.id }, data: { status: "CANCELLED", cancelledAt: now } });
    await tx.orderItem.updateMany({ where: { fulfillmentId: fulfillment.id }, data: { status: "CANCELLED" } });
    const waiting = await tx.prescription.findMany({
      where: {
        id: { in: fulfillment.items.flatMap((i) => (i.prescriptionId ? [i.prescriptionId] : [])) },
        orderId: order.id,
        status: { in: storedSpellings(AWAITING_DOCTOR_STATUSES) },
      },
      select: { id: true, status: true, doctorId: true },
    });
    for (const p of waiting) {
      await tx.prescription.update({ where: { id: p.id }, data: { status: PRESCRIPTION_STATUS.cancelled } });
      await tx.prescriptionHistory.create({
        data: { prescriptionId: p.id, fromStatus: p.status, toStatus: PRESCRIPTION_STATUS.cancelled, note: PRESCRIPTION_SYSTEM_NOTE.fulfillmentCancelled, ...actorColumns(actor) },
      });
      await recordPrescriptionUpdated(tx, { ...p, organisationId }, PRESCRIPTION_STATUS.cancelled, { reason: PRESCRIPTION_SYSTEM_NOTE.fulfillmentCancelled });
    }
    await progressOrderAfterPrescription(tx, order.id);
    await refreshOrderStatus(tx, order.id);
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "fulfillment",
      entityId: fulfillment.id,
      action: "cancelled",
      summary: `Fulfillment "${fulfillmentExternalId}" of order "${order.name}" cancelled`,
      values: { externalId: fulfillmentExternalId, order: order.name },
      details: { orderId: order.id, pharmacyOrderId: fulfillment.pharmacyOrder?.id ?? null, prescriptionsCancelled: waiting.length },
    });
    return order.id;
  });
}

/**
 * cancelFulfillment by uids (the admin tool names the order and fulfillment by uid, the Management
 * API by external ids): another organisation's order, or a fulfillment of another order, is not found.
 */
export async function cancelFulfillmentByUid(organisationId: string, orderId: string, fulfillmentId: string, actor: Actor): Promise<string> {
  const db = await database();
  const fulfillment = await db.fulfillment.findFirst({
    where: { id: fulfillmentId, orderId, order: { organisationId } },
    select: { externalId: true, order: { select: { externalId: true } } },
  });
  if (!fulfillment) throw new NotFoundError();
  return cancelFulfillment(organisationId, fulfillment.order.externalId, fulfillment.externalId, actor);
}
