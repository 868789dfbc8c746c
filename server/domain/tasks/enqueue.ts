import type { Tx } from "@/server/db/client";

/** The spec's internal events, run as durable background tasks (server/jobs/task-handlers.ts). */
export type TaskName =
  | "prescription.render"
  | "pharmacy_manager.send_prescription"
  // An organisation's fulfillments waiting for a pharmacy, routed once stock arrived (server/domain/orders/route-waiting.ts).
  | "orders.route_waiting"
  | "wallet_pass.push_notification"
  | "wallet_pass.updated"
  // One e-mail of the outbox (server/domain/mail/send-mail.ts).
  | "mail.send"
  // One routed payout's route at the payment provider (server/domain/payouts/create-route.ts).
  | "payout.create_route"
  // A completed pharmacy order's first tracking link sent back to its Shopify order (server/domain/shopify/push-tracking.ts).
  | "shopify.push_tracking"
  // A Shopify draft order of ours deleted (an expired reservation, a checkout Shopify failed; server/domain/shopify/draft-orders.ts).
  | "shopify.delete_draft_order";

export type TaskPayload = Record<string, string | number | boolean | null>;

/**
 * Records a background task in the caller's transaction: it exists exactly when the change that
 * asks for it commits, and a trigger wakes the task runners at that commit. Returns the task id.
 * The task runs at least once (more often after a crash or a retry): its handler must be idempotent.
 */
export async function enqueueTask(tx: Tx, name: TaskName, payload: TaskPayload): Promise<string> {
  const task = await tx.backgroundTask.create({ data: { name, payload }, select: { id: true } });
  return task.id;
}
