import { randomUUID } from "node:crypto";
import { config } from "@/server/config";
import { database, Prisma } from "@/server/db/client";
import type { SubscriptionScope } from "@/server/db/generated/enums";
import { webhookHeaders } from "./headers";
import { postWebhook, type SendOutcome } from "@/server/http/webhook-sender";
import { openSecret } from "./secret-box";

export type WebhookEvent = {
  id: string;
  eventType: string;
  organisationId: string;
  pharmacyId: string | null;
  subjectId: string;
  data: unknown;
};

/** Builds an event's `data` for a subscription scope from current state; null when its subject is gone. */
export type WebhookDataBuilder = (event: WebhookEvent, scope: SubscriptionScope) => Promise<object | null>;

/** The spec's "5 attempts in total". */
export const DEFAULT_MAX_ATTEMPTS = 5;

/**
 * Delay before the attempt after `attemptNumber` failed: base × 4^(n−1) (10 s, 40 s, 160 s, 600 s
 * with the defaults: "about 10 seconds, growing to at most about 10 minutes"), ±20 % jitter so
 * retries of many deliveries to one receiver spread out, capped at the maximum.
 */
export function retryDelayMs(attemptNumber: number, random: () => number = Math.random): number {
  const { WEBHOOK_RETRY_BASE_MS: base, WEBHOOK_RETRY_MAX_MS: max } = config();
  const exponential = base * 4 ** Math.max(0, attemptNumber - 1);
  return Math.round(Math.min(max, exponential * (0.8 + 0.4 * random())));
}

/** An attempt this process has claimed: its number is already counted on the delivery. */
export type ClaimedAttempt = { deliveryId: string; attemptNumber: number; target: string };

/** While an attempt runs, nextAttemptAt is a lease: a process that dies mid-attempt leaves a row that becomes due again. */
const leaseMs = () => config().WEBHOOK_TIMEOUT_MS + 15_000;

/**
 * Claims due deliveries for this process (FOR UPDATE SKIP LOCKED, so several processes sharing one
 * PostgreSQL never claim the same row), at most `limit`, and at most `slotsFor(origin)` per target
 * origin so one slow receiver cannot take every slot. Oldest due first.
 */
export async function claimDueDeliveries(
  limit: number,
  slotsFor: (target: string) => number,
): Promise<ClaimedAttempt[]> {
  const db = await database();
  if (limit <= 0) return [];
  return db.$transaction(async (tx) => {
    const candidates = await tx.$queryRaw<{ id: string; target: string }[]>`
      SELECT d."id", s."target" FROM "WebhookDelivery" d
        JOIN "WebhookSubscription" s ON s."id" = d."subscriptionId"
       WHERE d."state" = 'PENDING' AND d."nextAttemptAt" <= now()
       ORDER BY d."nextAttemptAt"
       LIMIT ${limit * 4}
         FOR UPDATE OF d SKIP LOCKED`;
    const taken = new Map<string, number>();
    const picked: { id: string; target: string }[] = [];
    for (const candidate of candidates) {
      const origin = targetOrigin(candidate.target);
      const used = taken.get(origin) ?? 0;
      if (picked.length >= limit || used >= slotsFor(origin)) continue;
      taken.set(origin, used + 1);
      picked.push(candidate);
    }
    if (picked.length === 0) return [];
    const targets = new Map(picked.map((p) => [p.id, p.target]));
    const rows = await tx.$queryRaw<{ id: string; attemptCount: number }[]>`
      UPDATE "WebhookDelivery"
         SET "attemptCount" = "attemptCount" + 1, "lastAttemptAt" = now(),
             "nextAttemptAt" = now() + ${leaseMs()} * interval '1 millisecond', "updatedAt" = now()
       WHERE "id" IN (${Prisma.join(picked.map((p) => p.id))})
   RETURNING "id", "attemptCount"`;
    return rows.map((r) => ({ deliveryId: r.id, attemptNumber: r.attemptCount, target: targets.get(r.id)! }));
  });
}

/**
 * Claims the next attempt of one delivery (the Inngest function's step), or null when it is not
 * due: already final, or held by another runner's lease. `toleranceMs` absorbs the difference
 * between Inngest's sleep and the database clock.
 */
export async function claimDelivery(deliveryId: string, toleranceMs = 2_000): Promise<ClaimedAttempt | null> {
  const db = await database();
  const [row] = await db.$queryRaw<{ id: string; attemptCount: number; target: string }[]>`
    UPDATE "WebhookDelivery" d
       SET "attemptCount" = d."attemptCount" + 1, "lastAttemptAt" = now(),
           "nextAttemptAt" = now() + ${leaseMs()} * interval '1 millisecond', "updatedAt" = now()
      FROM "WebhookSubscription" s
     WHERE d."id" = ${deliveryId} AND s."id" = d."subscriptionId" AND d."state" = 'PENDING'
       AND d."nextAttemptAt" <= now() + ${toleranceMs} * interval '1 millisecond'
 RETURNING d."id", d."attemptCount", s."target"`;
  return row ? { deliveryId: row.id, attemptNumber: row.attemptCount, target: row.target } : null;
}

export type AttemptResult = { state: "SUCCEEDED" | "FAILED" | "PENDING"; nextAttemptAt: Date | null; outcome: SendOutcome };

const notSent = (errorClass: string, errorMessage: string): SendOutcome => ({
  ok: false,
  durationMs: 0,
  status: null,
  errorClass,
  errorMessage,
});

type AttemptRow = {
  maxAttempts: number;
  eventId: string;
  eventType: string;
  organisationId: string;
  pharmacyId: string | null;
  subjectId: string;
  data: unknown;
  scope: SubscriptionScope;
  target: string;
  secretEncrypted: string;
  headerKey: string | null;
  headerValueEncrypted: string | null;
  payloadVersion: string;
  deleted: boolean;
};

/**
 * Makes one claimed attempt: rebuilds the payload from current state with a fresh timestamp, signs
 * it with the subscription's current secret (a re-registered secret applies to retries at once),
 * POSTs it, and records the attempt with the delivery's new state in one statement. The delivery,
 * its subscription and event are read in one statement too: this is the engine's hot path.
 */
export async function performClaimedAttempt(claimed: ClaimedAttempt, buildData: WebhookDataBuilder): Promise<AttemptResult> {
  const db = await database();
  const [row] = await db.$queryRaw<AttemptRow[]>`
    SELECT d."maxAttempts", e."id" AS "eventId", e."eventType", e."organisationId", e."pharmacyId", e."subjectId", e."data",
           s."scope", s."target", s."secretEncrypted", s."headerKey", s."headerValueEncrypted", s."payloadVersion",
           s."deletedAt" IS NOT NULL AS "deleted"
      FROM "WebhookDelivery" d
      JOIN "WebhookSubscription" s ON s."id" = d."subscriptionId"
      JOIN "OutboxEvent" e ON e."id" = d."outboxEventId"
     WHERE d."id" = ${claimed.deliveryId}`;
  if (!row) throw new Error(`webhook delivery ${claimed.deliveryId} not found`);
  const event: WebhookEvent = {
    id: row.eventId,
    eventType: row.eventType,
    organisationId: row.organisationId,
    pharmacyId: row.pharmacyId,
    subjectId: row.subjectId,
    data: row.data,
  };
  const startedAt = new Date();
  let outcome: SendOutcome;
  let requestBytes: number | null = null;
  let final = false;
  if (row.deleted) {
    outcome = notSent("subscription_deleted", "The subscription was deleted; the delivery ends.");
    final = true;
  } else {
    const data = await buildData(event, row.scope);
    if (data === null) {
      outcome = notSent("subject_gone", "The event's subject no longer exists; the delivery ends.");
      final = true;
    } else {
      const body = JSON.stringify({
        event_type: event.eventType,
        timestamp: Math.floor(Date.now() / 1000),
        payload_version: row.payloadVersion,
        data,
      });
      requestBytes = Buffer.byteLength(body);
      const customHeader =
        row.headerKey && row.headerValueEncrypted ? { key: row.headerKey, value: openSecret(row.headerValueEncrypted) } : null;
      const headers = webhookHeaders({ eventType: event.eventType, body, secret: openSecret(row.secretEncrypted), customHeader });
      outcome = await postWebhook({ target: row.target, body, headers, timeoutMs: config().WEBHOOK_TIMEOUT_MS });
    }
  }

  const exhausted = claimed.attemptNumber >= row.maxAttempts;
  const state = outcome.ok ? "SUCCEEDED" : final || exhausted ? "FAILED" : "PENDING";
  // Backoff counts within the current round: a re-send starts again at the base delay.
  const attemptInRound = claimed.attemptNumber - (row.maxAttempts - DEFAULT_MAX_ATTEMPTS);
  const nextAttemptAt = state === "PENDING" ? new Date(Date.now() + retryDelayMs(attemptInRound)) : null;
  // The delivery moves on only while this attempt is still its latest (an operator re-send may have reset it).
  await db.$executeRaw`
    WITH attempt AS (
      INSERT INTO "WebhookAttempt" ("id", "deliveryId", "attemptNumber", "startedAt", "durationMs", "target",
                                    "responseStatus", "errorClass", "errorMessage", "requestBytes", "nextAttemptAt")
      VALUES (${randomUUID()}, ${claimed.deliveryId}, ${claimed.attemptNumber}, ${startedAt}, ${outcome.durationMs}, ${row.target},
              ${outcome.status}, ${outcome.errorClass}, ${outcome.errorMessage}, ${requestBytes}, ${nextAttemptAt})
    )
    UPDATE "WebhookDelivery"
       SET "state" = ${state}::"DeliveryState", "nextAttemptAt" = ${nextAttemptAt}, "updatedAt" = now()
     WHERE "id" = ${claimed.deliveryId} AND "attemptCount" = ${claimed.attemptNumber} AND "state" = 'PENDING'`;
  return { state, nextAttemptAt, outcome };
}

/**
 * A builder that shares one build per event and subscription scope for `ttlMs`: the ten
 * subscriptions of one pharmacy order change then cost one read of the order, and every payload is
 * still built at send time (at most `ttlMs` before it). A failed build is not kept.
 */
export function sharedDataBuilder(build: WebhookDataBuilder, ttlMs = 250): WebhookDataBuilder {
  const recent = new Map<string, { at: number; data: Promise<object | null> }>();
  return (event, scope) => {
    const now = Date.now();
    for (const [key, entry] of recent) if (now - entry.at > ttlMs) recent.delete(key);
    const key = `${event.id}:${scope}`;
    const hit = recent.get(key);
    if (hit) return hit.data;
    const data = build(event, scope);
    recent.set(key, { at: now, data });
    data.catch(() => recent.delete(key));
    return data;
  };
}

/** Concurrency is bounded per receiver: the target's origin (scheme, host and port). */
export function targetOrigin(target: string): string {
  return URL.canParse(target) ? new URL(target).origin : target;
}
