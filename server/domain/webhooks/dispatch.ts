import { databaseDriver, Prisma } from "@/server/db/client";
import { PHARMACY_EVENT_TYPES } from "./event-types";

export type DispatchedDelivery = { id: string; target: string };

/**
 * Fans committed outbox events out into one delivery per matching live subscription: a pharmacy
 * event goes to that pharmacy's subscriptions and to its organisation's; organisation-only events
 * to the organisation's. Subscriptions are matched when the event is dispatched. Events are taken
 * oldest first with FOR UPDATE SKIP LOCKED, so several processes can dispatch at once, and marked
 * dispatched in the same statement as their deliveries are written: one prepared statement on the
 * driver per batch, as every order intake and status change is followed by one (it had been a
 * transaction of three statements and a Prisma model query, about as much server CPU as the intake
 * itself).
 *
 * `drained`: fewer than `limit` events were waiting, so there is nothing more to take now (an event
 * committed since then sends its own notification, which wakes the runner again).
 */
export async function dispatchOutboxEvents(limit = 200): Promise<{ events: number; deliveries: DispatchedDelivery[]; drained: boolean }> {
  const dispatch = Prisma.sql`
    WITH "events" AS (
      SELECT "id", "eventType", "organisationId", "pharmacyId", "createdAt" FROM "OutboxEvent"
       WHERE "dispatchedAt" IS NULL
       ORDER BY "createdAt", "id"
       LIMIT ${limit}
         FOR UPDATE SKIP LOCKED),
    "marked" AS (
      UPDATE "OutboxEvent" o SET "dispatchedAt" = now() FROM "events" e WHERE o."id" = e."id"),
    "deliveries" AS (
      INSERT INTO "WebhookDelivery" ("id", "subscriptionId", "outboxEventId", "eventType", "organisationId", "pharmacyId", "nextAttemptAt", "updatedAt")
      SELECT gen_random_uuid()::text, s."id", e."id", e."eventType", e."organisationId", e."pharmacyId", now(), now()
        FROM "events" e
        JOIN "WebhookSubscription" s ON s."deletedAt" IS NULL AND s."notificationType" = e."eventType"
         AND ((s."scope" = 'ORGANISATION' AND s."organisationId" = e."organisationId")
           OR (s."scope" = 'PHARMACY' AND e."eventType" = ANY(${[...PHARMACY_EVENT_TYPES]}::text[]) AND s."pharmacyId" = e."pharmacyId"))
      RETURNING "id", "subscriptionId", "outboxEventId")
    SELECT (SELECT count(*)::int FROM "events") AS "events",
           (SELECT coalesce(json_agg(json_build_object('id', d."id", 'target', s."target") ORDER BY e."createdAt", e."id", s."id"), '[]'::json)
              FROM "deliveries" d JOIN "WebhookSubscription" s ON s."id" = d."subscriptionId" JOIN "events" e ON e."id" = d."outboxEventId") AS "deliveries"`;
  const [result] = await (await databaseDriver()).query<{ events: number; deliveries: DispatchedDelivery[] }>(dispatch.text, dispatch.values);
  return { ...result, drained: result.events < limit };
}
