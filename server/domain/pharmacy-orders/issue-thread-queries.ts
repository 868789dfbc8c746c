import { database, databaseDriver, Prisma } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import type { Page } from "@/server/domain/paging";
import { pharmacyOrderScopeWhere, type PharmacyOrderScope } from "./lock";

export type IssueThreadStatus = "OPEN" | "RESOLVED";

/** Who wrote something in a thread: a portal user, an API key (a pharmacy's system), or the platform. */
export type ThreadAuthor = { type: "USER" | "API_KEY" | "SYSTEM"; displayName: string };

const threadSummary = {
  id: true,
  description: true,
  status: true,
  createdAt: true,
  resolvedAt: true,
  resolutionNote: true,
  openedByType: true,
  openedBySide: true,
  openedByUserId: true,
  openedByApiKeyId: true,
  resolvedByUserId: true,
  pharmacyOrder: { select: { id: true, name: true, status: true, orderId: true, pharmacy: { select: { id: true, displayName: true } } } },
  _count: { select: { messages: true } },
} satisfies Prisma.AdminIssueThreadSelect;

/** Who an actor column names, from the names read with it (a user or key deleted since has none). */
function threadAuthor(type: string, user: { id: string | null; name: string | undefined }, key: { id: string | null; name: string | undefined }): ThreadAuthor {
  return type === "USER" && user.id
    ? { type: "USER", displayName: user.name ?? "A former user" }
    : type === "API_KEY" && key.id
      ? { type: "API_KEY", displayName: key.name ?? "An API key" }
      : { type: "SYSTEM", displayName: "The platform" };
}

/** Display names of the users and keys that opened, resolved or wrote in threads, in two reads. */
async function authorNames(userIds: (string | null)[], apiKeyIds: (string | null)[]) {
  const db = await database();
  const ids = (list: (string | null)[]) => [...new Set(list.filter((id): id is string => Boolean(id)))];
  const [users, keys] = await Promise.all([
    db.user.findMany({ where: { id: { in: ids(userIds) } }, select: { id: true, displayName: true } }),
    db.apiKey.findMany({ where: { id: { in: ids(apiKeyIds) } }, select: { id: true, displayName: true } }),
  ]);
  const userName = new Map(users.map((u) => [u.id, u.displayName]));
  const keyName = new Map(keys.map((k) => [k.id, k.displayName]));
  return (type: string, userId: string | null, apiKeyId: string | null): ThreadAuthor =>
    threadAuthor(type, { id: userId, name: userId ? userName.get(userId) : undefined }, { id: apiKeyId, name: apiKeyId ? keyName.get(apiKeyId) : undefined });
}

/** A row of the admin tool's thread list as the list's statement returns it (JSON: times as text). */
type ThreadListRow = {
  id: string;
  description: string;
  status: IssueThreadStatus;
  createdAt: string;
  resolvedAt: string | null;
  resolutionNote: string | null;
  openedByType: string;
  openedBySide: string;
  openedByUserId: string | null;
  openedByUserName: string | null;
  openedByApiKeyId: string | null;
  openedByApiKeyName: string | null;
  resolvedByUserId: string | null;
  resolvedByUserName: string | null;
  pharmacyOrder: { id: string; name: string; status: string; orderId: string; pharmacy: { id: string; displayName: string } };
  messageCount: number;
};

/**
 * The organisation's issue threads in one status, newest first (the admin tool's list), with the
 * pharmacy order, its pharmacy, who opened and resolved each and its number of messages, and the
 * total: one prepared statement on the driver (as Prisma queries these were seven statements, most
 * of the list's cost to the server). Counted and paged over the index on (status, createdAt),
 * joined to the organisation's pharmacy orders.
 */
export async function listIssueThreads(organisationId: string, filter: { status: IssueThreadStatus }, page: Page) {
  const threads = Prisma.sql`"AdminIssueThread" t JOIN "PharmacyOrder" p ON p."id" = t."pharmacyOrderId"`;
  const inScope = Prisma.sql`t."status" = ${filter.status}::"IssueThreadStatus" AND p."organisationId" = ${organisationId}`;
  const statement = Prisma.sql`
    SELECT (SELECT count(*)::int FROM ${threads} WHERE ${inScope}) AS "total",
           (SELECT coalesce(json_agg(r ORDER BY r."createdAt" DESC, r."id" DESC), '[]'::json) FROM (
              SELECT t."id", t."description", t."status", t."createdAt", t."resolvedAt", t."resolutionNote", t."openedByType", t."openedBySide",
                     t."openedByUserId", ou."displayName" AS "openedByUserName", t."openedByApiKeyId", k."displayName" AS "openedByApiKeyName",
                     t."resolvedByUserId", ru."displayName" AS "resolvedByUserName",
                     json_build_object('id', p."id", 'name', p."name", 'status', p."status", 'orderId', p."orderId",
                                       'pharmacy', json_build_object('id', ph."id", 'displayName', ph."displayName")) AS "pharmacyOrder",
                     (SELECT count(*)::int FROM "AdminIssueMessage" m WHERE m."threadId" = t."id") AS "messageCount"
                FROM ${threads}
                JOIN "Pharmacy" ph ON ph."id" = p."pharmacyId"
                LEFT JOIN "User" ou ON ou."id" = t."openedByUserId"
                LEFT JOIN "ApiKey" k ON k."id" = t."openedByApiKeyId"
                LEFT JOIN "User" ru ON ru."id" = t."resolvedByUserId"
               WHERE ${inScope}
               ORDER BY t."createdAt" DESC, t."id" DESC
               LIMIT ${page.limit} OFFSET ${page.page * page.limit}) r) AS "items"`;
  const [{ total, items }] = await (await databaseDriver()).query<{ total: number; items: ThreadListRow[] }>(statement.text, statement.values);
  return {
    items: items.map((r) => ({
      id: r.id,
      description: r.description,
      status: r.status,
      createdAt: new Date(r.createdAt),
      resolvedAt: r.resolvedAt === null ? null : new Date(r.resolvedAt),
      resolutionNote: r.resolutionNote,
      openedBySide: r.openedBySide,
      pharmacyOrder: r.pharmacyOrder,
      _count: { messages: r.messageCount },
      openedBy: threadAuthor(r.openedByType, { id: r.openedByUserId, name: r.openedByUserName ?? undefined }, { id: r.openedByApiKeyId, name: r.openedByApiKeyName ?? undefined }),
      resolvedBy: r.resolvedByUserId ? threadAuthor("USER", { id: r.resolvedByUserId, name: r.resolvedByUserName ?? undefined }, { id: null, name: undefined }) : null,
    })),
    total,
  };
}

/** How many threads of the organisation are open (the admin home). */
export async function countOpenIssueThreads(organisationId: string): Promise<number> {
  // The list's filter (status OPEN, a pharmacy order of the organisation) as a driver statement: the admin home asks it on every visit.
  const [{ n }] = await (await databaseDriver()).query<{ n: number }>(
    `SELECT count(*)::int AS "n" FROM "AdminIssueThread" t JOIN "PharmacyOrder" p ON p."id" = t."pharmacyOrderId"
      WHERE t."status" = 'OPEN' AND p."organisationId" = $1`,
    [organisationId],
  );
  return n;
}

/** Threads within `scope` (an admin's organisation, a pharmacist's pharmacies) with their messages, oldest message first. */
async function threadsWithMessages(where: Prisma.AdminIssueThreadWhereInput) {
  const db = await database();
  const rows = await db.adminIssueThread.findMany({
    where,
    select: {
      ...threadSummary,
      messages: {
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        select: { id: true, body: true, side: true, authorType: true, authorUserId: true, createdAt: true },
      },
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  const author = await authorNames(
    rows.flatMap((r) => [r.openedByUserId, r.resolvedByUserId, ...r.messages.map((m) => m.authorUserId)]),
    rows.map((r) => r.openedByApiKeyId),
  );
  return rows.map((r) => ({
    ...r,
    openedBy: author(r.openedByType, r.openedByUserId, r.openedByApiKeyId),
    resolvedBy: r.resolvedByUserId ? author("USER", r.resolvedByUserId, null) : null,
    messages: r.messages.map((m) => ({ ...m, author: author(m.authorType, m.authorUserId, null) })),
  }));
}

export type IssueThreadDetail = Awaited<ReturnType<typeof threadsWithMessages>>[number];

/** One thread of the organisation with its messages; another organisation's thread is not found. */
export async function getIssueThread(organisationId: string, threadId: string): Promise<IssueThreadDetail> {
  const [thread] = await threadsWithMessages({ id: threadId, pharmacyOrder: { organisationId } });
  if (!thread) throw new NotFoundError();
  return thread;
}

/** Every thread of a pharmacy order within `scope` (the pharmacy portal's order page); an order outside it is not found. */
export async function listIssueThreadsOfPharmacyOrder(scope: PharmacyOrderScope, pharmacyOrderId: string): Promise<IssueThreadDetail[]> {
  const db = await database();
  const po = await db.pharmacyOrder.findFirst({ where: { id: pharmacyOrderId, ...pharmacyOrderScopeWhere(scope) }, select: { id: true } });
  if (!po) throw new NotFoundError();
  return threadsWithMessages({ pharmacyOrderId: po.id });
}
