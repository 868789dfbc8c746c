/**
 * Retention of the delivery logs: deliveries that ended (SUCCEEDED or FAILED) before the cut-off go,
 * with their attempts and re-sends (foreign keys cascade), then the dispatched outbox events before
 * the cut-off that no delivery refers to any more. Pending deliveries and the events they belong to
 * are never touched, however old. Each statement deletes one batch and commits on its own, so a
 * large backlog never holds one long transaction or many locks.
 */
import { database } from "@/server/db/client";

const RETENTION_BATCH_SIZE = 1000;

export type PruneResult = { deliveries: number; outboxEvents: number };

export async function pruneWebhookLogs(
  options: { olderThan: Date; batchSize?: number },
): Promise<PruneResult> {
  const db = await database();
  const { olderThan } = options;
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? RETENTION_BATCH_SIZE));
  const result: PruneResult = { deliveries: 0, outboxEvents: 0 };

  // A delivery that ended before the cut-off was created before it too: the createdAt bound lets
  // the createdAt index find the candidates. A row claimed by a runner meanwhile is PENDING and so
  // no longer matches when the DELETE re-checks it.
  for (;;) {
    const deleted = await db.$executeRaw`
      DELETE FROM "WebhookDelivery"
       WHERE "id" IN (
         SELECT "id" FROM "WebhookDelivery"
          WHERE "createdAt" < ${olderThan}
            AND "state" IN ('SUCCEEDED', 'FAILED')
            AND COALESCE("lastAttemptAt", "createdAt") < ${olderThan}
          LIMIT ${batchSize}
            FOR UPDATE SKIP LOCKED)
         AND "state" IN ('SUCCEEDED', 'FAILED')`;
    result.deliveries += deleted;
    if (deleted < batchSize) break;
  }

  // Deleting an outbox event cascades to its deliveries, hence only events without any left.
  for (;;) {
    const deleted = await db.$executeRaw`
      DELETE FROM "OutboxEvent"
       WHERE "id" IN (
         SELECT e."id" FROM "OutboxEvent" e
          WHERE e."dispatchedAt" IS NOT NULL AND e."createdAt" < ${olderThan}
            AND NOT EXISTS (SELECT 1 FROM "WebhookDelivery" d WHERE d."outboxEventId" = e."id")
          LIMIT ${batchSize}
            FOR UPDATE SKIP LOCKED)
         AND NOT EXISTS (SELECT 1 FROM "WebhookDelivery" d WHERE d."outboxEventId" = "OutboxEvent"."id")`;
    result.outboxEvents += deleted;
    if (deleted < batchSize) break;
  }
  return result;
}
