import { randomUUID } from "node:crypto";
import { config } from "@/server/config";
import { database, Prisma } from "@/server/db/client";
import type { SubscriptionScope } from "@/server/db/generated/enums";
import { webhookHeaders } from "./headers";
import { postWebhook, unreachableOutcome, type SendOutcome } from "@/server/http/webhook-sender";
import { log } from "@/server/log";
import { openSecret } from "./secret-box";
import { FAILING_AFTER_MS, FAILING_MIN_FAILURES, FAILING_WARNING_EVERY_MS } from "./target-health";

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
export type ClaimedAttempt = { deliveryId: string; subscriptionId: string; attemptNumber: number; target: string };

/** A due delivery offered to the caller of claimDueDeliveries, oldest due first. */
export type ClaimCandidate = { id: string; subscriptionId: string; target: string };

/** While an attempt runs, nextAttemptAt is a lease: a process that dies mid-attempt leaves a row that becomes due again. */
const leaseMs = () => config().WEBHOOK_TIMEOUT_MS + 15_000;

/**
 * Claims due deliveries for this process (FOR UPDATE SKIP LOCKED, so several processes sharing one
 * PostgreSQL never claim the same row). The due rows are looked up per subscription, at most
 * `perSubscription` of each, oldest due first: a target with thousands of due retries offers as
 * many candidates as one with a single new delivery, so it can never push the others out of the
 * claim (head-of-line blocking). `skip` names subscriptions the caller has no room for (their
 * origin's slots are full). `admit` sees the candidates oldest due first and says which to take
 * (it reserves the caller's slots). Returns the claimed attempts, and how many due candidates were
 * left because `admit` had no room: then a slot freeing up is the signal to claim again.
 */
export async function claimDueDeliveries(options: {
  perSubscription: number;
  skip: string[];
  admit: (candidate: ClaimCandidate) => boolean;
}): Promise<{ claimed: ClaimedAttempt[]; refused: number }> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const skip = options.skip.length > 0 ? Prisma.sql`WHERE s."id" NOT IN (${Prisma.join(options.skip)})` : Prisma.empty;
    const candidates = await tx.$queryRaw<ClaimCandidate[]>`
      SELECT d."id", d."subscriptionId", s."target" FROM "WebhookSubscription" s
       CROSS JOIN LATERAL (
             SELECT w."id", w."subscriptionId", w."nextAttemptAt" FROM "WebhookDelivery" w
              WHERE w."subscriptionId" = s."id" AND w."state" = 'PENDING' AND w."nextAttemptAt" <= now()
              ORDER BY w."nextAttemptAt"
              LIMIT ${options.perSubscription}
                FOR UPDATE OF w SKIP LOCKED) d
       ${skip}
       ORDER BY d."nextAttemptAt"`;
    const picked = candidates.filter((c) => options.admit(c));
    const refused = candidates.length - picked.length;
    if (picked.length === 0) return { claimed: [], refused };
    const of = new Map(picked.map((p) => [p.id, p]));
    const rows = await tx.$queryRaw<{ id: string; attemptCount: number }[]>`
      UPDATE "WebhookDelivery"
         SET "attemptCount" = "attemptCount" + 1, "lastAttemptAt" = now(),
             "nextAttemptAt" = now() + ${leaseMs()} * interval '1 millisecond', "updatedAt" = now()
       WHERE "id" IN (${Prisma.join(picked.map((p) => p.id))})
   RETURNING "id", "attemptCount"`;
    const claimed = rows.map((r) => {
      const c = of.get(r.id)!;
      return { deliveryId: r.id, subscriptionId: c.subscriptionId, attemptNumber: r.attemptCount, target: c.target };
    });
    return { claimed, refused };
  });
}

/**
 * Claims the next attempt of one delivery (the Inngest function's step), or null when it is not
 * due: already final, or held by another runner's lease. `toleranceMs` absorbs the difference
 * between Inngest's sleep and the database clock.
 */
export async function claimDelivery(deliveryId: string, toleranceMs = 2_000): Promise<ClaimedAttempt | null> {
  const db = await database();
  const [row] = await db.$queryRaw<{ id: string; subscriptionId: string; attemptCount: number; target: string }[]>`
    UPDATE "WebhookDelivery" d
       SET "attemptCount" = d."attemptCount" + 1, "lastAttemptAt" = now(),
           "nextAttemptAt" = now() + ${leaseMs()} * interval '1 millisecond', "updatedAt" = now()
      FROM "WebhookSubscription" s
     WHERE d."id" = ${deliveryId} AND s."id" = d."subscriptionId" AND d."state" = 'PENDING'
       AND d."nextAttemptAt" <= now() + ${toleranceMs} * interval '1 millisecond'
 RETURNING d."id", d."subscriptionId", d."attemptCount", s."target"`;
  return row ? { deliveryId: row.id, subscriptionId: row.subscriptionId, attemptNumber: row.attemptCount, target: row.target } : null;
}

/** `sent`: the target was tried (false when the delivery ended without a request: subscription deleted, subject gone). */
export type AttemptResult = { state: "SUCCEEDED" | "FAILED" | "PENDING"; nextAttemptAt: Date | null; outcome: SendOutcome; sent: boolean };

/** Where a delivery goes after an attempt: done, dropped, or pending until its retry. */
function nextStep(attemptNumber: number, maxAttempts: number, ok: boolean, final: boolean) {
  const exhausted = attemptNumber >= maxAttempts;
  const state: AttemptResult["state"] = ok ? "SUCCEEDED" : final || exhausted ? "FAILED" : "PENDING";
  // Backoff counts within the current round: a re-send starts again at the base delay.
  const attemptInRound = attemptNumber - (maxAttempts - DEFAULT_MAX_ATTEMPTS);
  const nextAttemptAt = state === "PENDING" ? new Date(Date.now() + retryDelayMs(attemptInRound)) : null;
  return { state, nextAttemptAt };
}

/**
 * The "keeps failing" warning is due on this failed attempt, which leaves `failuresAfter` failures
 * since the last success (targetHealthState's rule: enough failures, no success for an hour since
 * the last success or the registration), and none was logged in the last hour. The statements then
 * return `warned` by comparing the stored time with `now()::timestamptz(3)`: the column keeps
 * milliseconds, PostgreSQL's now() microseconds.
 */
const warnIfFailingSql = (failuresAfter: Prisma.Sql) => Prisma.sql`CASE
  WHEN ${failuresAfter} >= ${FAILING_MIN_FAILURES}
   AND coalesce("lastSuccessAt", "createdAt") <= now() - ${FAILING_AFTER_MS} * interval '1 millisecond'
   AND ("failingWarnedAt" IS NULL OR "failingWarnedAt" <= now() - ${FAILING_WARNING_EVERY_MS} * interval '1 millisecond')
  THEN now() ELSE "failingWarnedAt" END`;

type HealthRow = { subscriptionId: string; warned: boolean; failuresSinceSuccess: number; lastSuccessAt: Date | null };

function warnIfFailing(health: HealthRow | undefined, target: string, outcome: SendOutcome): void {
  if (!health?.warned) return;
  // An operator's signal, once an hour per subscription: the schedule goes on unchanged.
  log.warn("webhook target keeps failing: its attempts fail and none succeeded for an hour or more", {
    subscriptionId: health.subscriptionId,
    origin: targetOrigin(target),
    failuresSinceSuccess: health.failuresSinceSuccess,
    lastSuccessAt: health.lastSuccessAt?.toISOString() ?? null,
    errorClass: outcome.errorClass,
    errorMessage: outcome.errorMessage,
  });
}

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
 * POSTs it, and records the attempt with the delivery's new state and the subscription's health in
 * one statement. A target whose last attempt could not connect is first probed with a bare
 * connection; a refusal ends the attempt before the payload is built. The delivery, its
 * subscription and event are read in one statement too: this is the engine's hot path.
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
  let unreachable: SendOutcome | null = null;
  if (row.deleted) {
    outcome = notSent("subscription_deleted", "The subscription was deleted; the delivery ends.");
    final = true;
  } else if ((unreachable = await unreachableOutcome(row.target, config().WEBHOOK_TIMEOUT_MS))) {
    // Still refusing connections: the attempt is made and fails without building a payload it could not send.
    outcome = unreachable;
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

  const { state, nextAttemptAt } = nextStep(claimed.attemptNumber, row.maxAttempts, outcome.ok, final);
  // Attempts that were not sent (subscription deleted, subject gone) say nothing about the target.
  const sent = !final;
  // One statement records the attempt, moves the delivery on (only while this attempt is still its
  // latest: an operator re-send may have reset it) and the subscription's health (target-health.ts).
  // A healthy target's lastSuccessAt is refreshed at most once a minute, so its row is not rewritten
  // by every delivery. "warned": this attempt is the one that logs the "keeps failing" warning.
  const [health] = await db.$queryRaw<HealthRow[]>`
    WITH attempt AS (
      INSERT INTO "WebhookAttempt" ("id", "deliveryId", "attemptNumber", "startedAt", "durationMs", "target",
                                    "responseStatus", "errorClass", "errorMessage", "requestBytes", "nextAttemptAt")
      VALUES (${randomUUID()}, ${claimed.deliveryId}, ${claimed.attemptNumber}, ${startedAt}, ${outcome.durationMs}, ${row.target},
              ${outcome.status}, ${outcome.errorClass}, ${outcome.errorMessage}, ${requestBytes}, ${nextAttemptAt})
    ), delivery AS (
      UPDATE "WebhookDelivery"
         SET "state" = ${state}::"DeliveryState", "nextAttemptAt" = ${nextAttemptAt}, "updatedAt" = now()
       WHERE "id" = ${claimed.deliveryId} AND "attemptCount" = ${claimed.attemptNumber} AND "state" = 'PENDING'
    )
    UPDATE "WebhookSubscription"
       SET "lastSuccessAt" = CASE WHEN ${outcome.ok} THEN now() ELSE "lastSuccessAt" END,
           "lastFailureAt" = CASE WHEN ${outcome.ok} THEN "lastFailureAt" ELSE now() END,
           "failuresSinceSuccess" = CASE WHEN ${outcome.ok} THEN 0 ELSE "failuresSinceSuccess" + 1 END,
           "failingWarnedAt" = CASE WHEN ${outcome.ok} THEN "failingWarnedAt" ELSE ${warnIfFailingSql(Prisma.sql`"failuresSinceSuccess" + 1`)} END
     WHERE "id" = ${claimed.subscriptionId} AND ${sent}
       AND (NOT ${outcome.ok} OR "failuresSinceSuccess" > 0 OR "lastSuccessAt" IS NULL OR "lastSuccessAt" < now() - interval '1 minute')
 RETURNING "id" AS "subscriptionId", "failingWarnedAt" IS NOT NULL AND "failingWarnedAt" = now()::timestamptz(3) AS "warned",
           "failuresSinceSuccess", "lastSuccessAt"`;
  warnIfFailing(health, row.target, outcome);
  return { state, nextAttemptAt, outcome, sent };
}

/**
 * The claimed attempts of one target origin whose latest connection failed, made together: they
 * are made at the same moment, so one bare connection answers for all of them. Refused again →
 * every attempt is recorded as that failure, with the deliveries' next steps and the subscriptions'
 * health, in one statement, and no payload is built. The origin accepts again (or a subscription
 * was deleted) → those attempts are made one by one as usual. A dead receiver's backlog of retries
 * then costs a few statements per batch instead of several per delivery.
 */
export async function performUnreachableAttempts(claimed: ClaimedAttempt[], buildData: WebhookDataBuilder): Promise<AttemptResult[]> {
  if (claimed.length === 0) return [];
  const outcome = await unreachableOutcome(claimed[0].target, config().WEBHOOK_TIMEOUT_MS);
  const one = async (list: ClaimedAttempt[]) => {
    const results: AttemptResult[] = [];
    for (const c of list) results.push(await performClaimedAttempt(c, buildData));
    return results;
  };
  if (!outcome) return one(claimed);
  const db = await database();
  const rows = await db.$queryRaw<{ id: string; maxAttempts: number; deleted: boolean }[]>`
    SELECT d."id", d."maxAttempts", s."deletedAt" IS NOT NULL AS "deleted"
      FROM "WebhookDelivery" d JOIN "WebhookSubscription" s ON s."id" = d."subscriptionId"
     WHERE d."id" IN (${Prisma.join(claimed.map((c) => c.deliveryId))})`;
  const of = new Map(rows.map((r) => [r.id, r]));
  const live = claimed.filter((c) => of.get(c.deliveryId)?.deleted === false);
  const others = await one(claimed.filter((c) => of.get(c.deliveryId)?.deleted !== false));
  if (live.length === 0) return others;
  const startedAt = new Date(Date.now() - outcome.durationMs);
  const steps = live.map((c) => ({ claimed: c, ...nextStep(c.attemptNumber, of.get(c.deliveryId)!.maxAttempts, false, false) }));
  const values = steps.map(
    (s) => Prisma.sql`(${randomUUID()}::text, ${s.claimed.deliveryId}::text, ${s.claimed.subscriptionId}::text, ${s.claimed.attemptNumber}::int,
                       ${s.claimed.target}::text, ${s.state}::"DeliveryState", ${s.nextAttemptAt}::timestamptz)`,
  );
  const health = await db.$queryRaw<HealthRow[]>`
    WITH input ("attemptId", "deliveryId", "subscriptionId", "attemptNumber", "target", "state", "nextAttemptAt") AS (
      VALUES ${Prisma.join(values)}
    ), attempt AS (
      INSERT INTO "WebhookAttempt" ("id", "deliveryId", "attemptNumber", "startedAt", "durationMs", "target",
                                    "responseStatus", "errorClass", "errorMessage", "requestBytes", "nextAttemptAt")
      SELECT i."attemptId", i."deliveryId", i."attemptNumber", ${startedAt}::timestamptz, ${outcome.durationMs}::int, i."target",
             NULL, ${outcome.errorClass}::text, ${outcome.errorMessage}::text, NULL, i."nextAttemptAt"
        FROM input i
    ), delivery AS (
      UPDATE "WebhookDelivery" d
         SET "state" = i."state", "nextAttemptAt" = i."nextAttemptAt", "updatedAt" = now()
        FROM input i
       WHERE d."id" = i."deliveryId" AND d."attemptCount" = i."attemptNumber" AND d."state" = 'PENDING'
    ), failures AS (
      SELECT "subscriptionId", count(*)::int AS "n" FROM input GROUP BY 1
    )
    UPDATE "WebhookSubscription" s
       SET "lastFailureAt" = now(), "failuresSinceSuccess" = s."failuresSinceSuccess" + f."n",
           "failingWarnedAt" = ${warnIfFailingSql(Prisma.sql`s."failuresSinceSuccess" + f."n"`)}
      FROM failures f
     WHERE s."id" = f."subscriptionId"
 RETURNING s."id" AS "subscriptionId", s."failingWarnedAt" IS NOT NULL AND s."failingWarnedAt" = now()::timestamptz(3) AS "warned",
           s."failuresSinceSuccess", s."lastSuccessAt"`;
  for (const h of health) warnIfFailing(h, claimed[0].target, outcome);
  return [...others, ...steps.map((s) => ({ state: s.state, nextAttemptAt: s.nextAttemptAt, outcome, sent: true }))];
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
