import { database } from "@/server/db/client";

/** Where deliveries stand, for the drivers of the delivery engine (server/jobs). */

/** The deliveries among `ids` still pending, with their attempt count and target. */
export async function pendingDeliveries(ids: string[]): Promise<{ id: string; attemptCount: number; subscriptionId: string; target: string }[]> {
  const db = await database();
  const rows = await db.webhookDelivery.findMany({
    where: { id: { in: ids }, state: "PENDING" },
    select: { id: true, attemptCount: true, subscriptionId: true, subscription: { select: { target: true } } },
  });
  return rows.map((r) => ({ id: r.id, attemptCount: r.attemptCount, subscriptionId: r.subscriptionId, target: r.subscription.target }));
}

/** A delivery's state and its next attempt time; null when it no longer exists. */
export async function deliveryState(id: string) {
  const db = await database();
  return db.webhookDelivery.findUnique({ where: { id }, select: { state: true, nextAttemptAt: true } });
}

/** Pending deliveries whose due time passed more than `olderThanMs` ago (at most 1000). */
export async function overdueDeliveryIds(olderThanMs: number): Promise<string[]> {
  const db = await database();
  const overdue = await db.webhookDelivery.findMany({
    where: { state: "PENDING", nextAttemptAt: { lt: new Date(Date.now() - olderThanMs) } },
    select: { id: true },
    take: 1000,
  });
  return overdue.map((d) => d.id);
}

/** Milliseconds until the earliest pending attempt is due (negative when overdue); null when none is pending. */
export async function msUntilNextDeliveryDue(): Promise<number | null> {
  const db = await database();
  const [row] = await db.$queryRaw<{ ms: number | null }[]>`
    SELECT (extract(epoch FROM min("nextAttemptAt") - now()) * 1000)::float8 AS "ms"
      FROM "WebhookDelivery" WHERE "state" = 'PENDING'`;
  return row?.ms ?? null;
}
