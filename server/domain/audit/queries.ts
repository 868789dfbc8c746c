/**
 * The organisation's audit log (admin tool): one stream, newest first, of
 * - AuditEvent rows (recordAuditEvent: keys, users, settings, orders' commands, catalogue, …),
 * - PharmacyOrderHistory rows (every pharmacy order status change, with its comment),
 * - PrescriptionHistory rows (every prescription status change, with its note).
 * Stock changes are not in it: StockMovement is the stock's own ledger (the pharmacy portal's stock page).
 *
 * One UNION ALL statement: each branch carries the organisation and every filter itself and takes
 * at most `limit + 1` rows in (createdAt, id) order from the cursor on, so no branch reads more than a
 * page; the outer query merges them. The cursor is the last entry's (time, id): inserts above it do
 * not move the next page.
 */
import { errorText } from "@/i18n/error-text";
import { database, Prisma } from "@/server/db/client";
import type { ActorType } from "@/server/db/generated/enums";
import { ValidationError } from "@/server/domain/errors";
import { PHARMACY_ORDER_STATUSES } from "@/server/domain/pharmacy-orders/statuses";
import { AUDIT_LOG_KINDS, AUDIT_LOG_MAX_LIMIT, type AuditLogKind } from "./kinds";

export type AuditActorFilter = { type: "USER"; id: string } | { type: "API_KEY"; id: string } | { type: "SYSTEM" };

export type AuditLogFilter = {
  organisationId: string;
  /** Only these kinds (none given: all). */
  kinds?: readonly AuditLogKind[];
  actor?: AuditActorFilter;
  /** Bounds on the entry's time, both inclusive. */
  from?: Date;
  to?: Date;
  /** An entity's uid: its own entries; for an order also its pharmacy orders' and prescriptions' histories. */
  entityId?: string;
  /** Words in the summary, comment or note, a pharmacy order name or a status (case-insensitive). */
  text?: string;
  cursor?: string;
  limit: number;
};

export type AuditActor =
  | { type: "USER"; id: string; name: string | null }
  | { type: "API_KEY"; id: string; name: string | null }
  | { type: "SYSTEM" };

export type AuditLogEntry = {
  id: string;
  source: "audit_event" | "pharmacy_order_history" | "prescription_history";
  at: Date;
  kind: string;
  entityId: string | null;
  /** The shop order of a pharmacy order or prescription entry (the admin tool's order page). */
  orderId: string | null;
  action: string;
  /** As stored (English), for older rows and entries with no message. */
  summary: string;
  /**
   * The entry as a message and its values, worded at display (admin.audit.entries.<key>): an event's
   * `<kind>.<action>` with its stored values; a history entry's `pharmacy_order.created`, … with its
   * name and status values. Null for events recorded without values (their summary is shown).
   */
  words: { key: string; values: Record<string, string | number | null> } | null;
  actor: AuditActor;
};

type Row = {
  source: AuditLogEntry["source"];
  id: string;
  at: Date;
  kind: string;
  entityId: string | null;
  orderId: string | null;
  action: string;
  summary: string | null;
  summaryValues: Record<string, string | number | null> | null;
  name: string | null;
  fromStatus: string | null;
  toStatus: string | null;
  note: string | null;
  actorType: ActorType;
  actorUserId: string | null;
  actorApiKeyId: string | null;
};

function encodeCursor(entry: { at: Date; id: string }): string {
  return Buffer.from(`${entry.at.toISOString()}|${entry.id}`, "utf8").toString("base64url");
}

function decodeCursor(cursor: string): { at: Date; id: string } {
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const date = new Date(at ?? "");
  if (!id || Number.isNaN(date.getTime())) throw ValidationError.field("cursor", errorText("audit.badCursor"));
  return { at: date, id };
}

const and = (conditions: Prisma.Sql[]) => Prisma.join(conditions, " AND ");

/** A page of the organisation's log, newest first, and the cursor of the next page (null: the last page). */
export async function listAuditLog(filter: AuditLogFilter): Promise<{ entries: AuditLogEntry[]; nextCursor: string | null }> {
  const db = await database();
  const limit = Math.min(Math.max(filter.limit, 1), AUDIT_LOG_MAX_LIMIT);
  const kinds = filter.kinds && filter.kinds.length > 0 ? new Set(filter.kinds) : new Set<AuditLogKind>(AUDIT_LOG_KINDS);
  const cursor = filter.cursor ? decodeCursor(filter.cursor) : null;
  const text = filter.text?.trim() ? `%${filter.text.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;

  // The conditions every branch shares, over its alias `t` (time, id and actor columns).
  const common = (t: string) => {
    const c = (column: string) => Prisma.raw(`${t}."${column}"`);
    const out: Prisma.Sql[] = [];
    if (filter.from) out.push(Prisma.sql`${c("createdAt")} >= ${filter.from}`);
    if (filter.to) out.push(Prisma.sql`${c("createdAt")} <= ${filter.to}`);
    if (cursor) out.push(Prisma.sql`(${c("createdAt")}, ${c("id")}) < (${cursor.at}::timestamptz, ${cursor.id}::text)`);
    if (filter.actor) {
      out.push(Prisma.sql`${c("actorType")} = ${filter.actor.type}::"ActorType"`);
      if (filter.actor.type === "USER") out.push(Prisma.sql`${c("actorUserId")} = ${filter.actor.id}`);
      if (filter.actor.type === "API_KEY") out.push(Prisma.sql`${c("actorApiKeyId")} = ${filter.actor.id}`);
    }
    return out;
  };
  const branchOrder = (t: string) => Prisma.raw(`ORDER BY ${t}."createdAt" DESC, ${t}."id" DESC`);

  const branches: Prisma.Sql[] = [];
  // AuditEvent rows may be of a history kind too (a prescription's render request changes no status).
  const eventKinds = [...kinds];
  {
    const where = [Prisma.sql`a."organisationId" = ${filter.organisationId}`, ...common("a")];
    if (eventKinds.length < AUDIT_LOG_KINDS.length) where.push(Prisma.sql`a."entityType" IN (${Prisma.join(eventKinds)})`);
    if (filter.entityId) where.push(Prisma.sql`a."entityId" = ${filter.entityId}`);
    if (text) where.push(Prisma.sql`a."summary" ILIKE ${text}`);
    branches.push(Prisma.sql`(
      SELECT 'audit_event' AS "source", a."id", a."createdAt" AS "at", a."entityType" AS "kind", a."entityId",
             CASE WHEN a."entityType" = 'order' THEN a."entityId" END AS "orderId",
             a."action", a."summary", a."summaryValues", NULL::text AS "name", NULL::text AS "fromStatus", NULL::text AS "toStatus", NULL::text AS "note",
             a."actorType", a."actorUserId", a."actorApiKeyId"
        FROM "AuditEvent" a
       WHERE ${and(where)}
       ${branchOrder("a")} LIMIT ${limit + 1})`);
  }
  if (kinds.has("pharmacy_order")) {
    const where = [Prisma.sql`p."organisationId" = ${filter.organisationId}`, ...common("h")];
    if (filter.entityId) where.push(Prisma.sql`(h."pharmacyOrderId" = ${filter.entityId} OR p."orderId" = ${filter.entityId})`);
    if (text) where.push(Prisma.sql`(p."name" ILIKE ${text} OR h."comment" ILIKE ${text} OR h."toStatus" ILIKE ${text})`);
    branches.push(Prisma.sql`(
      SELECT 'pharmacy_order_history' AS "source", h."id", h."createdAt" AS "at", 'pharmacy_order' AS "kind", h."pharmacyOrderId" AS "entityId",
             p."orderId", CASE WHEN h."fromStatus" IS NULL THEN 'created' ELSE 'status_changed' END AS "action", NULL::text AS "summary",
             NULL::jsonb AS "summaryValues", p."name", h."fromStatus", h."toStatus", h."comment" AS "note", h."actorType", h."actorUserId", h."actorApiKeyId"
        FROM "PharmacyOrderHistory" h
        JOIN "PharmacyOrder" p ON p."id" = h."pharmacyOrderId"
       WHERE ${and(where)}
       ${branchOrder("h")} LIMIT ${limit + 1})`);
  }
  if (kinds.has("prescription")) {
    const where = [Prisma.sql`r."organisationId" = ${filter.organisationId}`, ...common("h")];
    if (filter.entityId) where.push(Prisma.sql`(h."prescriptionId" = ${filter.entityId} OR r."orderId" = ${filter.entityId})`);
    if (text) where.push(Prisma.sql`(h."note" ILIKE ${text} OR h."toStatus" ILIKE ${text})`);
    branches.push(Prisma.sql`(
      SELECT 'prescription_history' AS "source", h."id", h."createdAt" AS "at", 'prescription' AS "kind", h."prescriptionId" AS "entityId",
             r."orderId", CASE WHEN h."fromStatus" IS NULL THEN 'created' ELSE 'status_changed' END AS "action", NULL::text AS "summary",
             NULL::jsonb AS "summaryValues", NULL::text AS "name", h."fromStatus", h."toStatus", h."note", h."actorType", h."actorUserId", h."actorApiKeyId"
        FROM "PrescriptionHistory" h
        JOIN "Prescription" r ON r."id" = h."prescriptionId"
       WHERE ${and(where)}
       ${branchOrder("h")} LIMIT ${limit + 1})`);
  }
  if (branches.length === 0) return { entries: [], nextCursor: null };

  const rows = await db.$queryRaw<Row[]>`
    SELECT * FROM (${Prisma.join(branches, " UNION ALL ")}) e
     ORDER BY e."at" DESC, e."id" DESC
     LIMIT ${limit + 1}`;
  const page = rows.slice(0, limit);
  const actors = await actorNames(page);
  return {
    entries: page.map((row) => toEntry(row, actors)),
    nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]) : null,
  };
}

function historySummary(row: Row): string {
  const what = row.source === "pharmacy_order_history" ? `Pharmacy order ${row.name}` : `Prescription ${row.entityId?.slice(0, 8)}`;
  const change = row.fromStatus === null ? `created (${row.toStatus})` : `${row.fromStatus} → ${row.toStatus}`;
  return `${what}: ${change}${row.note ? `: “${row.note}”` : ""}`;
}

/**
 * A history entry as a message: its statuses stay values (the page names them); a pharmacy order's
 * note that is no status (PHARMACY_ORDER_CHANGE's labels) is `pharmacy_order.note`.
 */
function historyWords(row: Row): NonNullable<AuditLogEntry["words"]> {
  const kind = row.source === "pharmacy_order_history" ? "pharmacy_order" : "prescription";
  const name = row.source === "pharmacy_order_history" ? (row.name ?? "") : (row.entityId?.slice(0, 8) ?? "");
  const values = { name, from: row.fromStatus, to: row.toStatus, note: row.note };
  if (row.source === "pharmacy_order_history" && row.fromStatus === null && !(PHARMACY_ORDER_STATUSES as readonly string[]).includes(row.toStatus ?? "")) {
    return { key: "pharmacy_order.note", values };
  }
  return { key: `${kind}.${row.fromStatus === null ? "created" : "status_changed"}`, values };
}

function toEntry(row: Row, actors: { users: Map<string, string>; keys: Map<string, string> }): AuditLogEntry {
  const actor: AuditActor =
    row.actorType === "USER" && row.actorUserId
      ? { type: "USER", id: row.actorUserId, name: actors.users.get(row.actorUserId) ?? null }
      : row.actorType === "API_KEY" && row.actorApiKeyId
        ? { type: "API_KEY", id: row.actorApiKeyId, name: actors.keys.get(row.actorApiKeyId) ?? null }
        : { type: "SYSTEM" };
  return {
    id: row.id,
    source: row.source,
    at: row.at,
    kind: row.kind,
    entityId: row.entityId,
    orderId: row.orderId,
    action: row.action,
    summary: row.summary ?? historySummary(row),
    words: row.source === "audit_event" ? (row.summaryValues ? { key: `${row.kind}.${row.action}`, values: row.summaryValues } : null) : historyWords(row),
    actor,
  };
}

/** The names of a page's users and API keys, in two reads. */
async function actorNames(rows: Row[]) {
  const db = await database();
  const userIds = [...new Set(rows.flatMap((r) => (r.actorUserId ? [r.actorUserId] : [])))];
  const keyIds = [...new Set(rows.flatMap((r) => (r.actorApiKeyId ? [r.actorApiKeyId] : [])))];
  const [users, keys] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, displayName: true } }) : [],
    keyIds.length ? db.apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, displayName: true } }) : [],
  ]);
  return { users: new Map(users.map((u) => [u.id, u.displayName])), keys: new Map(keys.map((k) => [k.id, k.displayName])) };
}

/** An actor of the filter, with what tells them apart (a user's role; a key's family and whether it is revoked), worded by the page. */
export type AuditActorOption =
  | { type: "USER"; id: string; name: string; role: string }
  | { type: "API_KEY"; id: string; name: string; family: string; revoked: boolean };

/** Who may appear in the organisation's log, for the actor filter: its users and its API keys (revoked ones too). */
export async function listAuditActors(organisationId: string): Promise<AuditActorOption[]> {
  const db = await database();
  const [users, keys] = await Promise.all([
    db.user.findMany({ where: { organisationId }, select: { id: true, displayName: true, role: true }, orderBy: [{ displayName: "asc" }, { id: "asc" }] }),
    db.apiKey.findMany({
      where: { organisationId },
      select: { id: true, displayName: true, family: true, revokedAt: true },
      orderBy: [{ displayName: "asc" }, { id: "asc" }],
    }),
  ]);
  return [
    ...users.map((u): AuditActorOption => ({ type: "USER", id: u.id, name: u.displayName, role: u.role })),
    ...keys.map((k): AuditActorOption => ({ type: "API_KEY", id: k.id, name: k.displayName, family: k.family, revoked: k.revokedAt !== null })),
  ];
}
