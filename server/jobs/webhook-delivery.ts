import { eventType, staticSchema } from "inngest";
import { buildWebhookData } from "@/server/api/webhooks/payloads";
import { config } from "@/server/config";
import { claimDelivery, performClaimedAttempt, targetOrigin } from "@/server/domain/webhooks/deliver-attempt";
import { deliveryState, overdueDeliveryIds, pendingDeliveries } from "@/server/domain/webhooks/delivery-state";
import { dispatchOutboxEvents } from "@/server/domain/webhooks/dispatch";
import { pruneFinishedTasks } from "@/server/domain/tasks/attempt";
import { pruneWebhookLogs } from "@/server/domain/webhooks/retention";
import { log } from "@/server/log";
import { inngest } from "./inngest-client";
import { jobsProvider } from "./provider";
import { wakeWebhookRunner } from "./webhook-runner";

/** The Inngest event that starts (or restarts) the attempts of one delivery. */
export const webhookDeliveryDue = eventType("rx/webhook.delivery.due", {
  schema: staticSchema<{ deliveryId: string; subscriptionId: string; origin: string }>(),
});

/**
 * Says that deliveries are due now (new ones, or re-sent from the logs). With Inngest, one event per
 * delivery (its id makes a repeated announcement of the same round a no-op); without it, the
 * in-process runner is woken (other processes find them on their next poll).
 */
export async function announceDeliveries(deliveryIds: string[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  if (jobsProvider().webhookAttemptsInProcess) {
    wakeWebhookRunner();
    return;
  }
  const rows = await pendingDeliveries(deliveryIds);
  if (rows.length === 0) return;
  await inngest.send(
    rows.map((r) => ({
      id: `webhook-delivery-${r.id}-${r.attemptCount}`,
      name: webhookDeliveryDue.name,
      data: { deliveryId: r.id, subscriptionId: r.subscriptionId, origin: targetOrigin(r.target) },
    })),
  );
}

/** Fans committed outbox events out into deliveries until none is left; returns the deliveries' ids. */
export async function dispatchPendingEvents(): Promise<string[]> {
  const ids: string[] = [];
  for (;;) {
    const { deliveries, drained } = await dispatchOutboxEvents();
    ids.push(...deliveries.map((d) => d.id));
    if (drained) return ids;
  }
}

export type DeliveryStep = { state: "SUCCEEDED" | "FAILED" | "PENDING"; nextAttemptAt: number | null; attempted: boolean };

/**
 * One step of the Inngest delivery function: the next attempt of a delivery if it is due; else
 * where it stands (final, or pending until nextAttemptAt, e.g. held by another runner's lease).
 */
export async function attemptWebhookDelivery(deliveryId: string): Promise<DeliveryStep> {
  const claimed = await claimDelivery(deliveryId);
  if (claimed) {
    const result = await performClaimedAttempt(claimed, buildWebhookData);
    return { state: result.state, nextAttemptAt: result.nextAttemptAt?.getTime() ?? null, attempted: true };
  }
  const row = await deliveryState(deliveryId);
  if (!row) return { state: "FAILED", nextAttemptAt: null, attempted: false };
  return { state: row.state, nextAttemptAt: row.nextAttemptAt?.getTime() ?? null, attempted: false };
}

/** Re-announces pending deliveries whose due time passed long ago: their Inngest run was lost. */
export async function sweepOverdueDeliveries(olderThanMs = 5 * 60_000): Promise<{ announced: number }> {
  const overdue = await overdueDeliveryIds(olderThanMs);
  await announceDeliveries(overdue);
  return { announced: overdue.length };
}

/** Delivery logs, and finished background tasks, are kept WEBHOOK_LOG_RETENTION_DAYS after they end. */
export const WEBHOOK_LOG_RETENTION_JOB = { id: "webhook-log-retention", cron: "17 * * * *", everyMs: 60 * 60_000 } as const;

export async function runWebhookLogRetention(now = new Date()) {
  const olderThan = new Date(now.getTime() - config().WEBHOOK_LOG_RETENTION_DAYS * 24 * 60 * 60_000);
  const result = { ...(await pruneWebhookLogs({ olderThan })), tasks: await pruneFinishedTasks(olderThan) };
  log.info("webhook log retention finished", { job: WEBHOOK_LOG_RETENTION_JOB.id, ...result });
  return result;
}
