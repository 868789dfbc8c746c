/**
 * Webhook Delivery Logs (spec, Events → Delivery mechanics, item 7): the deliveries of a scope's
 * subscriptions with their attempts. The pharmacy portal's scope is its pharmacies' own
 * subscriptions (organisation-level ones are not shown there even when the event is about the
 * pharmacy); the admin tool's is the organisation's (Management API) subscriptions.
 * A delivery that used up its attempts is FAILED: the spec's "dropped", shown as a permanent failure.
 */
import { database, type Prisma, type Tx, type Db } from "@/server/db/client";
import type { DeliveryState } from "@/server/db/generated/client";
import { NotFoundError } from "@/server/domain/errors";
import { pageArgs, type Page } from "@/server/domain/paging";
import { DELIVERY_LOG_MAX_LIMIT, DELIVERY_LOG_STATES, type DeliveryLogState } from "./delivery-log-states";

export { DELIVERY_LOG_MAX_LIMIT, DELIVERY_LOG_STATES, type DeliveryLogState };

const stateWhere: Record<DeliveryLogState, Prisma.WebhookDeliveryWhereInput> = {
  pending: { state: "PENDING", attempts: { none: {} } },
  retrying: { state: "PENDING", attempts: { some: {} } },
  delivered: { state: "SUCCEEDED" },
  failed: { state: "FAILED" },
};

function stateOf(row: DeliveryState, attempted: boolean): DeliveryLogState {
  if (row === "SUCCEEDED") return "delivered";
  if (row === "FAILED") return "failed";
  return attempted ? "retrying" : "pending";
}

/**
 * Whose deliveries: the pharmacies' subscriptions (the pharmacies the reader may see,
 * server/domain/pharmacies/pharmacy-scope.ts; none matches nothing), or the organisation's
 * organisation-level subscriptions (optionally only the events of one of its pharmacies).
 */
export type DeliveryLogScope = { pharmacyIds: readonly string[] } | { organisationId: string; pharmacyId?: string };

export type DeliveryLogFilter = DeliveryLogScope & {
  subscriptionId?: string;
  eventType?: string;
  state?: DeliveryLogState;
  /** Bounds on the delivery's creation time, both inclusive. */
  from?: Date;
  to?: Date;
};

export type DeliverySubscriptionRef = { id: string; target: string; notificationType: string; deleted: boolean };

export type DeliveryLogItem = {
  id: string;
  eventType: string;
  /** The event's subject: a pharmacy order uid, or a pharmacy SKU uid for stock events. */
  subjectId: string;
  pharmacyId: string | null;
  subscription: DeliverySubscriptionRef;
  state: DeliveryLogState;
  attemptCount: number;
  maxAttempts: number;
  /** When the next attempt is due (pending only; while an attempt runs, the end of its lease). */
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  createdAt: Date;
  lastAttempt: { attemptNumber: number; responseStatus: number | null; errorClass: string | null; durationMs: number } | null;
};

export type DeliveryAttemptLog = {
  attemptNumber: number;
  startedAt: Date;
  durationMs: number;
  target: string;
  responseStatus: number | null;
  errorClass: string | null;
  errorMessage: string | null;
  requestBytes: number | null;
  nextAttemptAt: Date | null;
};

export type DeliveryResendActor =
  | { type: "USER"; id: string; name: string | null }
  | { type: "API_KEY"; id: string; name: string | null }
  | { type: "SYSTEM" };

export type DeliveryResendLog = { createdAt: Date; by: DeliveryResendActor };

export type DeliveryLogDetail = DeliveryLogItem & { attempts: DeliveryAttemptLog[]; resends: DeliveryResendLog[] };

/** The deliveries of a scope; null when it matches nothing (an empty pharmacy list). */
function scopeWhere(scope: DeliveryLogScope): Prisma.WebhookDeliveryWhereInput | null {
  if ("pharmacyIds" in scope) {
    return scope.pharmacyIds.length === 0 ? null : { pharmacyId: { in: [...scope.pharmacyIds] }, subscription: { scope: "PHARMACY" } };
  }
  return {
    organisationId: scope.organisationId,
    ...(scope.pharmacyId !== undefined ? { pharmacyId: scope.pharmacyId } : {}),
    subscription: { scope: "ORGANISATION", organisationId: scope.organisationId },
  };
}

/** The subscriptions of a scope, deleted ones included; null when it matches nothing. */
function subscriptionScopeWhere(scope: DeliveryLogScope): Prisma.WebhookSubscriptionWhereInput | null {
  if ("pharmacyIds" in scope) {
    return scope.pharmacyIds.length === 0 ? null : { scope: "PHARMACY", pharmacyId: { in: [...scope.pharmacyIds] } };
  }
  return { scope: "ORGANISATION", organisationId: scope.organisationId, pharmacyId: null };
}

const itemSelect = {
  id: true,
  eventType: true,
  pharmacyId: true,
  state: true,
  attemptCount: true,
  maxAttempts: true,
  nextAttemptAt: true,
  lastAttemptAt: true,
  createdAt: true,
  outboxEvent: { select: { subjectId: true } },
  subscription: { select: { id: true, target: true, notificationType: true, deletedAt: true } },
} as const satisfies Prisma.WebhookDeliverySelect;

type ItemRow = Prisma.WebhookDeliveryGetPayload<{ select: typeof itemSelect }>;
type LastAttemptRow = { attemptNumber: number; responseStatus: number | null; errorClass: string | null; durationMs: number };

function toItem(row: ItemRow, lastAttempt: LastAttemptRow | undefined): DeliveryLogItem {
  return {
    id: row.id,
    eventType: row.eventType,
    subjectId: row.outboxEvent.subjectId,
    pharmacyId: row.pharmacyId,
    subscription: {
      id: row.subscription.id,
      target: row.subscription.target,
      notificationType: row.subscription.notificationType,
      deleted: row.subscription.deletedAt !== null,
    },
    state: stateOf(row.state, lastAttempt !== undefined),
    attemptCount: row.attemptCount,
    maxAttempts: row.maxAttempts,
    nextAttemptAt: row.state === "PENDING" ? row.nextAttemptAt : null,
    lastAttemptAt: row.lastAttemptAt,
    createdAt: row.createdAt,
    lastAttempt: lastAttempt
      ? {
          attemptNumber: lastAttempt.attemptNumber,
          responseStatus: lastAttempt.responseStatus,
          errorClass: lastAttempt.errorClass,
          durationMs: lastAttempt.durationMs,
        }
      : null,
  };
}

/**
 * The last recorded attempt of each delivery, in one query. Prisma applies `distinct` to the rows it
 * read (no native DISTINCT ON without a preview feature): a few attempts per delivery, so cheap.
 */
async function lastAttempts(db: Db | Tx, deliveryIds: string[]): Promise<Map<string, LastAttemptRow>> {
  if (deliveryIds.length === 0) return new Map();
  const rows = await db.webhookAttempt.findMany({
    where: { deliveryId: { in: deliveryIds } },
    distinct: ["deliveryId"],
    orderBy: [{ deliveryId: "asc" }, { attemptNumber: "desc" }],
    select: { deliveryId: true, attemptNumber: true, responseStatus: true, errorClass: true, durationMs: true },
  });
  return new Map(rows.map((row) => [row.deliveryId, row]));
}

/** A page of deliveries, newest first, and how many match in all. */
export async function listWebhookDeliveries(
  filter: DeliveryLogFilter & Page,
): Promise<{ items: DeliveryLogItem[]; total: number }> {
  const db = await database();
  const scope = scopeWhere(filter);
  if (!scope) return { items: [], total: 0 };
  const page = { page: filter.page, limit: Math.min(Math.max(filter.limit, 1), DELIVERY_LOG_MAX_LIMIT) };
  const where: Prisma.WebhookDeliveryWhereInput = {
    ...scope,
    ...(filter.subscriptionId !== undefined ? { subscriptionId: filter.subscriptionId } : {}),
    ...(filter.eventType !== undefined ? { eventType: filter.eventType } : {}),
    ...(filter.state !== undefined ? stateWhere[filter.state] : {}),
    ...(filter.from || filter.to
      ? { createdAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lte: filter.to } : {}) } }
      : {}),
  };
  const [rows, total] = await Promise.all([
    db.webhookDelivery.findMany({ where, select: itemSelect, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...pageArgs(page) }),
    db.webhookDelivery.count({ where }),
  ]);
  const last = await lastAttempts(
    db,
    rows.map((row) => row.id),
  );
  return { items: rows.map((row) => toItem(row, last.get(row.id))), total };
}

/** One delivery with all its attempts and re-sends; NotFoundError when unknown or outside the scope. */
export async function getWebhookDelivery(scope: DeliveryLogScope, deliveryId: string): Promise<DeliveryLogDetail> {
  const db = await database();
  const where = scopeWhere(scope);
  if (!where) throw new NotFoundError();
  const row = await db.webhookDelivery.findFirst({
    where: { id: deliveryId, ...where },
    select: {
      ...itemSelect,
      attempts: {
        orderBy: { attemptNumber: "asc" },
        select: {
          attemptNumber: true,
          startedAt: true,
          durationMs: true,
          target: true,
          responseStatus: true,
          errorClass: true,
          errorMessage: true,
          requestBytes: true,
          nextAttemptAt: true,
        },
      },
      resends: { orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { createdAt: true, userId: true, apiKeyId: true } },
    },
  });
  if (!row) throw new NotFoundError();
  const { attempts, resends, ...item } = row;
  return {
    ...toItem(item, attempts.at(-1)),
    attempts,
    resends: await resendLogs(db, resends),
  };
}

/** Re-sends with the name of who asked (the user's display name, or the API key's). */
async function resendLogs(
  db: Db | Tx,
  resends: { createdAt: Date; userId: string | null; apiKeyId: string | null }[],
): Promise<DeliveryResendLog[]> {
  const userIds = [...new Set(resends.flatMap((r) => (r.userId ? [r.userId] : [])))];
  const keyIds = [...new Set(resends.flatMap((r) => (r.apiKeyId ? [r.apiKeyId] : [])))];
  const [users, keys] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, displayName: true } }) : [],
    keyIds.length ? db.apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, displayName: true } }) : [],
  ]);
  const userNames = new Map(users.map((u) => [u.id, u.displayName]));
  const keyNames = new Map(keys.map((k) => [k.id, k.displayName]));
  return resends.map((r): DeliveryResendLog => {
    if (r.userId) return { createdAt: r.createdAt, by: { type: "USER", id: r.userId, name: userNames.get(r.userId) ?? null } };
    if (r.apiKeyId) return { createdAt: r.createdAt, by: { type: "API_KEY", id: r.apiKeyId, name: keyNames.get(r.apiKeyId) ?? null } };
    return { createdAt: r.createdAt, by: { type: "SYSTEM" } };
  });
}

export type DeliveryLogSubscription = {
  id: string;
  /** Null for an organisation-level subscription. */
  pharmacyId: string | null;
  notificationType: string;
  target: string;
  deleted: boolean;
};

/**
 * The subscriptions to filter the logs by: the scope's live subscriptions, and deleted ones
 * while they still have deliveries in the logs. Live first, then by event type and target.
 */
export async function listSubscriptionsForLogs(scope: DeliveryLogScope): Promise<DeliveryLogSubscription[]> {
  const db = await database();
  const where = subscriptionScopeWhere(scope);
  if (!where) return [];
  const rows = await db.webhookSubscription.findMany({
    where: { ...where, OR: [{ deletedAt: null }, { deliveries: { some: {} } }] },
    select: { id: true, pharmacyId: true, notificationType: true, target: true, deletedAt: true },
    orderBy: [{ notificationType: "asc" }, { target: "asc" }, { createdAt: "asc" }, { id: "asc" }],
  });
  return rows
    .map((row) => ({
      id: row.id,
      pharmacyId: row.pharmacyId,
      notificationType: row.notificationType,
      target: row.target,
      deleted: row.deletedAt !== null,
    }))
    .sort((a, b) => Number(a.deleted) - Number(b.deleted));
}
