import type { Tx } from "@/server/db/client";
import type { PharmacyOrderRouting } from "@/server/db/generated/enums";
import type { Actor } from "@/server/domain/actor";
import { isSignedStatus } from "@/server/domain/prescriptions/statuses";
import { createPharmacyOrder, pharmacyEmailNoticeTo, pharmacyOrderLinesOf } from "./create-pharmacy-order";
import { routeFulfillmentToPharmacy } from "./route-fulfillment";
import { PHARMACY_ORDER_STATUS } from "./statuses";

/** Who chooses the pharmacy of a fulfillment that has no active pharmacy order. */
export type RoutingChoice =
  /** As intake does: the integrator's destination_pharmacy_uid, else location_id, else the order's pharmacy_uid, else automatic. */
  | { by: "intake" }
  /** Automatic selection only (re-routing after a pharmacy gave the fulfillment back). */
  | { by: "automatic" }
  /** An admin's choice in the admin tool, taken as it is. */
  | { by: "admin"; pharmacyId: string };

export type OpenOutcome =
  | { opened: true; pharmacyOrderId: string; pharmacyId: string }
  /** A prescription of its items is not signed (or was deleted): it waits for a doctor. */
  | { opened: false; reason: "waits-for-doctor" }
  /** None of its live items goes to a pharmacy (skip_for_pharmacy_orders). */
  | { opened: false; reason: "nothing-for-pharmacy" }
  /** No pharmacy can serve it (automatic selection found none). */
  | { opened: false; reason: "unroutable" };

type ItemState = { skipForPharmacyOrders: boolean; prescription: { status: string; deletedAt: Date | null } | null };

/** A live item's prescription is not signed (or was deleted): the fulfillment waits for a doctor, not for a pharmacy. */
export const waitsForDoctor = (liveItems: readonly ItemState[]): boolean =>
  liveItems.some((i) => i.prescription && (i.prescription.deletedAt || !isSignedStatus(i.prescription.status)));

/** A live item goes to a pharmacy (its SKU is not skip_for_pharmacy_orders). */
export const hasItemsForPharmacy = (liveItems: readonly ItemState[]): boolean => liveItems.some((i) => !i.skipForPharmacyOrders);

/**
 * Opens the pharmacy order of an open fulfillment that has no active pharmacy order, in the
 * caller's transaction (the caller holds the order's row lock): routes it as `choice` says and
 * creates the pharmacy order of its live items for pharmacies, with the prescription of its
 * prescribed items (`prescriptionId` when given), `prepaid`, projected payouts, the
 * pharmacy_order_created event and the pharmacy_email notice (createPharmacyOrder). It carries the
 * order's shipping cost when no live pharmacy order of the order does. Unless an admin chooses, it
 * never goes to a pharmacy that cancelled a pharmacy order of this fulfillment before: automatic
 * selection leaves such pharmacies out, and an integrator's pharmacy that cancelled makes it
 * unroutable (docs/decisions/intake.md#re-routing). The one way a fulfillment gets a pharmacy
 * order after intake: a hold's release, a signed prescription, a re-route, an admin's routing by hand.
 */
export async function openFulfillmentPharmacyOrder(
  tx: Tx,
  fulfillmentId: string,
  choice: RoutingChoice,
  actor: Actor,
  options: { prescriptionId?: string; comment?: string } = {},
): Promise<OpenOutcome> {
  // Separate reads rather than one nested include: a transaction has one connection, on which Prisma's parallel relation reads would queue.
  const fulfillment = await tx.fulfillment.findUniqueOrThrow({
    where: { id: fulfillmentId },
    select: { id: true, orderId: true, destinationPharmacyId: true, locationId: true },
  });
  const order = await tx.order.findUniqueOrThrow({
    where: { id: fulfillment.orderId },
    select: { id: true, organisationId: true, pharmacyId: true, pharmacyEmail: true, shippingCostAmount: true, shippingCostCurrency: true },
  });
  const items = await tx.orderItem.findMany({
    where: { fulfillmentId, status: { not: "CANCELLED" } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: {
      id: true,
      skuId: true,
      quantity: true,
      totalPaidAmount: true,
      prescriptionId: true,
      fulfillmentMethod: true,
      sku: { select: { skipForPharmacyOrders: true } },
      prescription: { select: { status: true, deletedAt: true } },
    },
  });
  const states = items.map((i) => ({ skipForPharmacyOrders: i.sku.skipForPharmacyOrders, prescription: i.prescription }));
  if (waitsForDoctor(states)) return { opened: false, reason: "waits-for-doctor" };
  if (!hasItemsForPharmacy(states)) return { opened: false, reason: "nothing-for-pharmacy" };
  const toPharmacy = items.filter((i) => !i.sku.skipForPharmacyOrders);

  let explicitPharmacyId: string | null = null;
  if (choice.by === "admin") explicitPharmacyId = choice.pharmacyId;
  if (choice.by === "intake") {
    const located = fulfillment.locationId
      ? await tx.pharmacy.findFirst({ where: { organisationId: order.organisationId, locationId: fulfillment.locationId }, select: { id: true } })
      : null;
    explicitPharmacyId = fulfillment.destinationPharmacyId ?? located?.id ?? order.pharmacyId;
  }
  const routing: PharmacyOrderRouting = choice.by === "admin" ? "ADMIN" : explicitPharmacyId ? "INTEGRATOR" : "AUTOMATIC";
  // Only an admin sends a fulfillment back to a pharmacy that cancelled it; the service never does on its own.
  const cancelledBy =
    choice.by === "admin"
      ? []
      : (await tx.pharmacyOrder.findMany({ where: { fulfillmentId, status: PHARMACY_ORDER_STATUS.cancelled }, select: { pharmacyId: true } })).map(
          (po) => po.pharmacyId,
        );
  if (explicitPharmacyId && cancelledBy.includes(explicitPharmacyId)) return { opened: false, reason: "unroutable" };
  const routed = await routeFulfillmentToPharmacy(
    tx,
    order.organisationId,
    toPharmacy.map((i) => ({ skuId: i.skuId, quantity: i.quantity })),
    explicitPharmacyId,
    cancelledBy,
  );
  if (!routed) return { opened: false, reason: "unroutable" };

  const shippingCarrier = await tx.pharmacyOrder.findFirst({
    where: { orderId: order.id, status: { not: PHARMACY_ORDER_STATUS.cancelled }, shippingCostsAmount: { not: null } },
    select: { id: true },
  });
  const carriesShipping = !shippingCarrier && order.shippingCostAmount !== null;
  const lines = pharmacyOrderLinesOf(toPharmacy, routed);
  const pharmacyOrderId = await createPharmacyOrder(
    tx,
    {
      organisationId: order.organisationId,
      orderId: order.id,
      fulfillmentId,
      pharmacyId: routed.pharmacyId,
      routing,
      ...lines,
      prescriptionId: options.prescriptionId ?? lines.prescriptionId,
      shippingCostsAmount: carriesShipping ? order.shippingCostAmount : null,
      shippingCostsCurrency: carriesShipping ? order.shippingCostCurrency : null,
      noticeTo: pharmacyEmailNoticeTo(order, routed.pharmacyId),
      comment: options.comment,
    },
    actor,
  );
  return { opened: true, pharmacyOrderId, pharmacyId: routed.pharmacyId };
}
