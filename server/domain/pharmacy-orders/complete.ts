import { errorText } from "@/i18n/error-text";
import { database, type Tx } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { BadRequestError } from "@/server/domain/errors";
import { routePayouts } from "@/server/domain/payouts/route-payouts";
import { enqueueShopifyTrackingPush } from "@/server/domain/shopify/push-tracking";
import { assertOrderAsExpected, type ExpectedOrderState } from "./expected-state";
import { lockPharmacyOrder, recordStatusChange, type LockedPharmacyOrder } from "./lock";
import { moveOrderStock, stockHeldByOrder } from "./order-stock";
import { appendShipments, type Carrier } from "./shipments";
import { PHARMACY_ORDER_STATUS } from "./statuses";

export { CARRIERS } from "./shipments";
export type TrackingLink = { trackingLink: string; carrier: Carrier };


/**
 * complete_order, in one transaction under the order's row lock: status completed; the stock of
 * the order's pharmacy SKUs reduced, each under its own row lock with a stock movement and a
 * pharmacy_sku_stock_updated; a shipment per tracking link (the first one also sent on to the
 * order's Shopify order, by a task); payouts routed; pharmacy_order_updated. Completing a completed
 * order again without tracking data changes nothing, so concurrent or repeated completions reduce
 * stock once; with tracking data it is refused. A cancelled order completes as any other (the
 * spec's "any"), unless its fulfillment was re-routed to another pharmacy (reclaimFulfillment). With
 * `expected` (the portal), refused when the order changed meanwhile.
 */
export async function completePharmacyOrder(
  pharmacyId: string,
  pharmacyOrderId: string,
  trackingLinks: TrackingLink[],
  actor: Actor,
  expected?: ExpectedOrderState,
): Promise<void> {
  const db = await database();
  await db.$transaction(async (tx) => {
    const order = await lockPharmacyOrder(tx, pharmacyId, pharmacyOrderId);
    assertOrderAsExpected(order, expected);
    await completeLockedPharmacyOrder(tx, order, trackingLinks, actor);
  });
}

/** The completion itself, for callers that already hold the lock (the automatic status check). */
export async function completeLockedPharmacyOrder(
  tx: Tx,
  order: LockedPharmacyOrder,
  trackingLinks: TrackingLink[],
  actor: Actor,
): Promise<void> {
  if (order.status === PHARMACY_ORDER_STATUS.completed) {
    if (trackingLinks.length > 0) throw new BadRequestError(errorText("pharmacyOrders.completedNoTracking"), { code: "order_completed" });
    return;
  }
  // The spec's "any": a cancelled order completes too, unless another pharmacy serves its fulfillment now.
  await reclaimFulfillment(tx, order);
  const now = new Date();
  // Stock and money move at the first completion only (an order may leave completed and come back);
  // stock again when a cancellation after a completion gave it back (nothing held by the order).
  const { completedAt } = await tx.pharmacyOrder.findUniqueOrThrow({ where: { id: order.id }, select: { completedAt: true } });
  const firstCompletion = completedAt === null;
  if (firstCompletion) await tx.pharmacyOrder.update({ where: { id: order.id }, data: { completedAt: now } });
  if (firstCompletion || (order.status === PHARMACY_ORDER_STATUS.cancelled && (await stockHeldByOrder(tx, order.id)).size === 0)) {
    await reduceStock(tx, order, actor);
  }
  await appendShipments(
    tx,
    order.id,
    trackingLinks.map((link) => ({ trackingUrl: link.trackingLink, trackingNumber: null, carrierName: link.carrier })),
  );
  // The first tracking link goes back to a Shopify shop's order by a background task, after commit.
  if (trackingLinks.length > 0) await enqueueShopifyTrackingPush(tx, order, { trackingUrl: trackingLinks[0].trackingLink, carrier: trackingLinks[0].carrier });
  if (firstCompletion) await routePayouts(tx, order.id, now);
  await recordStatusChange(tx, order, PHARMACY_ORDER_STATUS.completed, actor);
}

/**
 * A pharmacy order its pharmacy gave back (cancelled, no longer its fulfillment's active one) that is
 * completed after all: refused with 400 when the fulfillment went to another pharmacy meanwhile (the
 * goods would go out twice: the one deviation from the spec's "any", docs/decisions/api.md#the-specs-own-words);
 * otherwise it serves its fulfillment again, which no longer waits for a pharmacy.
 */
async function reclaimFulfillment(tx: Tx, order: LockedPharmacyOrder): Promise<void> {
  const [{ givenBack }] = await tx.$queryRaw<{ givenBack: boolean }[]>`
    SELECT "activeFulfillmentId" IS NULL AS "givenBack" FROM "PharmacyOrder" WHERE "id" = ${order.id}`;
  if (!givenBack) return;
  // The order's lock, as routing takes it: no re-route can open a pharmacy order for it meanwhile.
  await tx.$queryRaw`SELECT 1 FROM "Order" WHERE "id" = ${order.orderId} FOR UPDATE`;
  const [given] = await tx.$queryRaw<{ fulfillmentId: string; servedElsewhere: boolean }[]>`
    SELECT po."fulfillmentId",
           EXISTS (SELECT 1 FROM "PharmacyOrder" other WHERE other."activeFulfillmentId" = po."fulfillmentId") AS "servedElsewhere"
      FROM "PharmacyOrder" po
     WHERE po."id" = ${order.id} AND po."activeFulfillmentId" IS NULL`;
  if (!given) return;
  if (given.servedElsewhere) throw new BadRequestError(errorText("pharmacyOrders.reroutedNoCompletion"), { code: "order_rerouted" });
  await tx.$executeRaw`UPDATE "PharmacyOrder" SET "activeFulfillmentId" = "fulfillmentId" WHERE "id" = ${order.id}`;
}

/** Reduces stock by the order's quantities, per pharmacy SKU. */
async function reduceStock(tx: Tx, order: LockedPharmacyOrder, actor: Actor): Promise<void> {
  const items = await tx.pharmacyOrderItem.findMany({
    where: { pharmacyOrderId: order.id, pharmacySkuId: { not: null } },
    select: { pharmacySkuId: true, amount: true },
  });
  const quantities = new Map<string, number>();
  for (const item of items) quantities.set(item.pharmacySkuId!, (quantities.get(item.pharmacySkuId!) ?? 0) + item.amount);
  // Stock does not go below zero; the movement records what was actually taken.
  await moveOrderStock(tx, order, quantities, "ORDER_COMPLETION", actor, (stock, quantity) => Math.max(0, stock - quantity));
}
