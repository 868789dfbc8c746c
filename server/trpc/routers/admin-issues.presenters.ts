/** Issue threads as both portals show them: camelCase, uids, dates as Unix seconds. */
import type { IssueThreadDetail, listIssueThreads } from "@/server/domain/pharmacy-orders/issue-thread-queries";
import { unix, unixOrNull } from "@/server/wire/format";

type ThreadRow = Awaited<ReturnType<typeof listIssueThreads>>["items"][number];

export function presentThreadRow(row: ThreadRow) {
  return {
    uid: row.id,
    status: row.status === "OPEN" ? ("open" as const) : ("resolved" as const),
    description: row.description,
    pharmacyOrder: { uid: row.pharmacyOrder.id, name: row.pharmacyOrder.name, status: row.pharmacyOrder.status, orderUid: row.pharmacyOrder.orderId },
    pharmacy: { uid: row.pharmacyOrder.pharmacy.id, displayName: row.pharmacyOrder.pharmacy.displayName },
    openedBy: row.openedBy.displayName,
    /** Who asked: the pharmacy (an on-hold comment, its clarification request) or the admin team (theirs). */
    openedBySide: row.openedBySide === "ADMIN" ? ("admin" as const) : ("pharmacy" as const),
    messageCount: row._count.messages,
    createdAt: unix(row.createdAt),
    resolvedAt: unixOrNull(row.resolvedAt),
    resolvedBy: row.resolvedBy?.displayName ?? null,
    resolutionNote: row.resolutionNote,
  };
}

export function presentThread(thread: IssueThreadDetail) {
  return {
    ...presentThreadRow(thread),
    messages: thread.messages.map((m) => ({
      uid: m.id,
      body: m.body,
      side: m.side === "ADMIN" ? ("admin" as const) : ("pharmacy" as const),
      author: m.author.displayName,
      createdAt: unix(m.createdAt),
    })),
  };
}

export type IssueThreadView = ReturnType<typeof presentThread>;
export type IssueThreadRowView = ReturnType<typeof presentThreadRow>;
