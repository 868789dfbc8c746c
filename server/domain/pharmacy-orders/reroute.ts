import type { Tx } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { cancelLockedPharmacyOrder, type CancelOptions } from "./cancel";
import type { LockedPharmacyOrder } from "./lock";
import { openFulfillmentPharmacyOrder } from "./open-fulfillment";
import { refreshOrderStatus } from "./order-status";

const SYSTEM: Actor = { type: "SYSTEM" };

/** The first history entry of a pharmacy order that re-routing opened (no pharmacy named: the new pharmacy reads it too). */
export const REROUTED_COMMENT = "Re-routed automatically: the pharmacy it was sent to first cancelled it.";

/**
 * A pharmacy's own cancellation of one of its pharmacy orders, in the caller's transaction under
 * the order's row locks: the cancellation (cancelLockedPharmacyOrder), then, when the pharmacy
 * order was never completed and stands for an open fulfillment, the pharmacy gives the fulfillment
 * back (docs/decisions/intake.md#re-routing):
 * - the cancelled pharmacy order stays as history and is no longer the fulfillment's active one;
 * - when its pharmacy had been chosen automatically, routing chooses again by the same rule,
 *   leaving out every pharmacy that cancelled this fulfillment, and the new pharmacy order gets
 *   what any new one gets (pharmacy_order_created to its pharmacy, projected payouts), by the system;
 * - when the integrator or an admin had chosen the pharmacy, or no other pharmacy can take it, the
 *   fulfillment stays without a pharmacy (order "pharmacy not found", the admin home's "orders
 *   without a pharmacy") until an admin routes it by hand.
 * Inside the cancelling transaction, so no one ever sees the fulfillment between two pharmacies and
 * a second cancel (refused: cancelled is final) cannot re-route twice.
 * The pharmacy's doors call this (PATCH …/status, the portal's single and bulk changes, the
 * automatic status check of its system); the organisation's cancellations (a fulfillment cancelled
 * by the integrator or an admin) call cancelLockedPharmacyOrder alone.
 */
export async function cancelAsPharmacy(tx: Tx, order: LockedPharmacyOrder, actor: Actor, comment: string | null = null, options: CancelOptions = {}): Promise<void> {
  await cancelLockedPharmacyOrder(tx, order, actor, comment, options);
  const [given] = await tx.$queryRaw<{ fulfillmentId: string; routing: string }[]>`
    SELECT po."fulfillmentId", po."routing"::text AS "routing"
      FROM "PharmacyOrder" po JOIN "Fulfillment" f ON f."id" = po."activeFulfillmentId"
     WHERE po."id" = ${order.id} AND po."completedAt" IS NULL AND f."status" <> 'CANCELLED'`;
  // Completed once (its goods left the pharmacy: a person settles that), or no longer the fulfillment's active order.
  if (!given) return;
  await tx.$executeRaw`UPDATE "PharmacyOrder" SET "activeFulfillmentId" = NULL WHERE "id" = ${order.id}`;
  if (given.routing === "AUTOMATIC") {
    await openFulfillmentPharmacyOrder(tx, given.fulfillmentId, { by: "automatic" }, SYSTEM, { comment: REROUTED_COMMENT });
  }
  await refreshOrderStatus(tx, order.orderId);
}
