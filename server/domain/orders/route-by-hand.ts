import { errorText, type ErrorText } from "@/i18n/error-text";
import { database, type Tx } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { ConflictError, NotFoundError } from "@/server/domain/errors";
import { hasItemsForPharmacy, openFulfillmentPharmacyOrder, waitsForDoctor } from "@/server/domain/pharmacy-orders/open-fulfillment";
import { byRoutingPreference, pharmacyOffers } from "@/server/domain/pharmacy-orders/route-fulfillment";
import { PHARMACY_ORDER_STATUS } from "@/server/domain/pharmacy-orders/statuses";
import { progressOrderAfterPrescription } from "@/server/domain/prescriptions/order-progress";
import { ORDER_STATUS } from "./statuses";

/** What decides whether an admin may route a fulfillment by hand. */
export type HandRoutingState = {
  order: { onHold: boolean; status: string };
  fulfillment: { status: string; pharmacyOrder: { name: string; status: string } | null };
  /** The fulfillment's live items. */
  items: { skipForPharmacyOrders: boolean; prescription: { status: string; deletedAt: Date | null } | null }[];
};

/**
 * Why an admin cannot route this fulfillment to a pharmacy now, or null when they can: it must be
 * open, of an order not on hold, without an active pharmacy order that stands (none, or a cancelled
 * one), with items for a pharmacy and no prescription still waiting for a doctor. The one rule for
 * the command and for the order page's "Route to pharmacy". docs/decisions/intake.md#re-routing
 */
export function handRoutingRefusal(state: HandRoutingState): ErrorText | null {
  if (state.order.onHold || state.order.status === ORDER_STATUS.paused) return errorText("routing.orderOnHold");
  if (state.fulfillment.status === "CANCELLED") return errorText("routing.fulfillmentCancelled");
  const active = state.fulfillment.pharmacyOrder;
  if (active && active.status !== PHARMACY_ORDER_STATUS.cancelled) return errorText("routing.atPharmacy", { name: active.name });
  if (waitsForDoctor(state.items)) return errorText("routing.waitsForDoctor");
  if (!hasItemsForPharmacy(state.items)) return errorText("routing.nothingForPharmacy");
  return null;
}

/** The fulfillment's live items as handRoutingRefusal reads them, with what routing needs. */
async function liveItems(tx: Tx, fulfillmentId: string) {
  const items = await tx.orderItem.findMany({
    where: { fulfillmentId, status: { not: "CANCELLED" } },
    select: { skuId: true, quantity: true, sku: { select: { skipForPharmacyOrders: true } }, prescription: { select: { status: true, deletedAt: true } } },
  });
  return items.map((i) => ({ skuId: i.skuId, quantity: i.quantity, skipForPharmacyOrders: i.sku.skipForPharmacyOrders, prescription: i.prescription }));
}

/**
 * An admin routes a fulfillment to a pharmacy of the organisation they choose (the admin tool's
 * "Route to pharmacy"), in one transaction under the order's row lock: refused (conflict) unless
 * handRoutingRefusal allows it; an active pharmacy order that was cancelled becomes history; the new
 * pharmacy order is opened at the chosen pharmacy as any new one is (pharmacy_order_created to it,
 * projected payouts), by the admin, even at a pharmacy that cancelled it before or lacks stock
 * (a person decides; the chooser shows both); the order moves on and the routing is audited. Two
 * admins routing at once: the second waits for the order's lock and finds it at a pharmacy. Another
 * organisation's order, a fulfillment of another order and another organisation's pharmacy are not found.
 */
export async function routeFulfillmentByHand(
  organisationId: string,
  orderId: string,
  fulfillmentId: string,
  pharmacyId: string,
  actor: Actor,
): Promise<{ pharmacyOrderId: string }> {
  const db = await database();
  return db.$transaction(
    async (tx) => {
      const [order] = await tx.$queryRaw<{ id: string; name: string; status: string; onHold: boolean }[]>`
        SELECT "id", "name", "status", "onHold" FROM "Order" WHERE "id" = ${orderId} AND "organisationId" = ${organisationId} FOR UPDATE`;
      if (!order) throw new NotFoundError();
      const fulfillment = await tx.fulfillment.findFirst({
        where: { id: fulfillmentId, orderId: order.id },
        select: { id: true, externalId: true, status: true, pharmacyOrder: { select: { id: true, name: true, status: true } } },
      });
      if (!fulfillment) throw new NotFoundError();
      const pharmacy = await tx.pharmacy.findFirst({ where: { id: pharmacyId, organisationId }, select: { id: true, displayName: true } });
      if (!pharmacy) throw new NotFoundError();
      const refusal = handRoutingRefusal({ order, fulfillment, items: await liveItems(tx, fulfillment.id) });
      if (refusal) throw new ConflictError(refusal);

      const previous = fulfillment.pharmacyOrder;
      if (previous) await tx.$executeRaw`UPDATE "PharmacyOrder" SET "activeFulfillmentId" = NULL WHERE "id" = ${previous.id}`;
      const opened = await openFulfillmentPharmacyOrder(tx, fulfillment.id, { by: "admin", pharmacyId: pharmacy.id }, actor);
      // handRoutingRefusal checked what could stop it, under the same lock.
      if (!opened.opened) throw new Error(`fulfillment ${fulfillment.id} could not be routed by hand: ${opened.reason}`);
      await progressOrderAfterPrescription(tx, order.id);
      await recordAuditEvent(tx, organisationId, actor, {
        entity: "fulfillment",
        entityId: fulfillment.id,
        action: "routed",
        summary: `Fulfillment "${fulfillment.externalId}" of order "${order.name}" routed by hand to "${pharmacy.displayName}"`,
        values: { externalId: fulfillment.externalId, order: order.name, pharmacy: pharmacy.displayName },
        details: { orderId: order.id, pharmacyId: pharmacy.id, pharmacyOrderId: opened.pharmacyOrderId, previousPharmacyOrderId: previous?.id ?? null },
      });
      return { pharmacyOrderId: opened.pharmacyOrderId };
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}

export type PharmacyOption = {
  pharmacyId: string;
  displayName: string;
  /** It carries every item's SKU (a type it hides does not count). */
  carriesAll: boolean;
  /** … with enough stock for the quantities: automatic routing could choose it. */
  hasStock: boolean;
  /** It cancelled a pharmacy order of this fulfillment before. */
  cancelledBefore: boolean;
  /** The pharmacy automatic routing would choose now (the first that can serve and did not cancel). */
  suggested: boolean;
};

/**
 * The admin tool's pharmacy chooser for a fulfillment: every pharmacy of the organisation (there is
 * no inactive pharmacy), whether it carries the items and has the stock (routing's own reading,
 * pharmacyOffers), and whether it cancelled the fulfillment before. Routing's choices first, in its
 * order of preference, then the rest by name. Another organisation's order or fulfillment is not found.
 */
export async function pharmacyChoicesForFulfillment(organisationId: string, orderId: string, fulfillmentId: string): Promise<PharmacyOption[]> {
  const db = await database();
  const fulfillment = await db.fulfillment.findFirst({ where: { id: fulfillmentId, orderId, order: { organisationId } }, select: { id: true } });
  if (!fulfillment) throw new NotFoundError();
  const needs = (await liveItems(db, fulfillment.id)).filter((i) => !i.skipForPharmacyOrders);
  const pharmacies = await db.pharmacy.findMany({ where: { organisationId }, orderBy: [{ displayName: "asc" }, { id: "asc" }], select: { id: true, displayName: true } });
  const offers = needs.length === 0 ? [] : await pharmacyOffers(db, organisationId, needs);
  const cancelled = new Set(
    (await db.pharmacyOrder.findMany({ where: { fulfillmentId, status: PHARMACY_ORDER_STATUS.cancelled }, select: { pharmacyId: true } })).map((po) => po.pharmacyId),
  );
  const routable = offers.filter((o) => o.canServe && !cancelled.has(o.pharmacyId)).sort(byRoutingPreference);
  const rank = new Map(routable.map((o, i) => [o.pharmacyId, i]));
  const offerOf = new Map(offers.map((o) => [o.pharmacyId, o]));
  return pharmacies
    .map((p) => ({
      pharmacyId: p.id,
      displayName: p.displayName,
      carriesAll: offerOf.get(p.id)?.carriesAll ?? false,
      hasStock: offerOf.get(p.id)?.canServe ?? false,
      cancelledBefore: cancelled.has(p.id),
      suggested: rank.get(p.id) === 0,
    }))
    // A stable sort: the pharmacies routing would not choose keep their order by name.
    .sort((a, b) => (rank.get(a.pharmacyId) ?? pharmacies.length) - (rank.get(b.pharmacyId) ?? pharmacies.length));
}
