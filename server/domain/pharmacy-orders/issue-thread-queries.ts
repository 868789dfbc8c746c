import { database, databaseDriver, type Prisma } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { pageArgs, type Page } from "@/server/domain/paging";
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
    type === "USER" && userId
      ? { type: "USER", displayName: userName.get(userId) ?? "A former user" }
      : type === "API_KEY" && apiKeyId
        ? { type: "API_KEY", displayName: keyName.get(apiKeyId) ?? "An API key" }
        : { type: "SYSTEM", displayName: "The platform" };
}

/**
 * The organisation's issue threads in one status, newest first (the admin tool's list), with the
 * pharmacy order, its pharmacy and who opened each. Counted and paged over the index on
 * (status, createdAt), joined to the organisation's pharmacy orders.
 */
export async function listIssueThreads(organisationId: string, filter: { status: IssueThreadStatus }, page: Page) {
  const db = await database();
  const where: Prisma.AdminIssueThreadWhereInput = { status: filter.status, pharmacyOrder: { organisationId } };
  const [rows, total] = await Promise.all([
    db.adminIssueThread.findMany({ where, select: threadSummary, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...pageArgs(page) }),
    db.adminIssueThread.count({ where }),
  ]);
  const author = await authorNames(
    rows.flatMap((r) => [r.openedByUserId, r.resolvedByUserId]),
    rows.map((r) => r.openedByApiKeyId),
  );
  return {
    items: rows.map((r) => ({
      ...r,
      openedBy: author(r.openedByType, r.openedByUserId, r.openedByApiKeyId),
      resolvedBy: r.resolvedByUserId ? author("USER", r.resolvedByUserId, null) : null,
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
