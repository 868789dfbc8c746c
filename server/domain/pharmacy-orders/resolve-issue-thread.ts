import { errorText } from "@/i18n/error-text";
import { database, type Tx } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError, ValidationError } from "@/server/domain/errors";
import { applyStatusChange } from "./change-status";
import { markAnswerUnread } from "./issue-thread-answers";
import { lockPharmacyOrderInScope, recordCancelledStatus, recordStatusChange, type LockedPharmacyOrder } from "./lock";
import { PHARMACY_ORDER_STATUS, SETTABLE_PHARMACY_ORDER_STATUSES, type SettablePharmacyOrderStatus } from "./statuses";

const RESOLUTION_NOTE_MAX_LENGTH = 5000;

export type ResolveOutcome = {
  /** False when the thread was already resolved (another admin was quicker): nothing changed. */
  resolved: boolean;
  /** The status the pharmacy order went back to, or null when it stayed as it was. */
  releasedTo: ReturnStatus | null;
  /** Why a release that was asked for did not happen. */
  keptOnHold: "not_on_hold" | "other_open_threads" | null;
};

/** An optional note: trimmed, blank means none, at most 5000 characters (ValidationError on `note`). */
function resolutionNote(raw: string | null | undefined): string | null {
  const text = typeof raw === "string" ? raw.trim() : "";
  if (text.length > RESOLUTION_NOTE_MAX_LENGTH) {
    throw ValidationError.field("note", errorText("fields.maxLength", { maximum: RESOLUTION_NOTE_MAX_LENGTH }));
  }
  return text || null;
}

/** Where a resolution may return an order: a settable status, or completed (an order held after its completion). */
type ReturnStatus = SettablePharmacyOrderStatus | typeof PHARMACY_ORDER_STATUS.completed;

/**
 * The status the pharmacy order had before its latest move to on-hold (its history's last entry into
 * on-hold, which stores it); "waiting for pharmacy", the queue's first status, when the history does
 * not say. Completed comes back as completed: an order held after its completion goes back to it.
 */
async function statusBeforeHold(tx: Tx, pharmacyOrderId: string): Promise<ReturnStatus> {
  const entry = await tx.pharmacyOrderHistory.findFirst({
    where: { pharmacyOrderId, toStatus: PHARMACY_ORDER_STATUS.onHold, fromStatus: { not: null } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { fromStatus: true },
  });
  const before = entry?.fromStatus;
  const returnable: readonly string[] = [...SETTABLE_PHARMACY_ORDER_STATUSES, PHARMACY_ORDER_STATUS.completed];
  return before && before !== PHARMACY_ORDER_STATUS.onHold && returnable.includes(before)
    ? (before as ReturnStatus)
    : PHARMACY_ORDER_STATUS.waitingForPharmacy;
}

/**
 * Resolves an issue thread of the organisation (docs/decisions/admin-tool.md#orders-and-issue-threads
 * threads"). With `releaseOrder`, the pharmacy order leaves on-hold for the status it had before
 * the hold, through the status rule of every other change (applyStatusChange: history entry with
 * the note as comment, pharmacy_order_updated, the order's status follow-up) — unless another
 * thread of it is still open (the pharmacy's other question is not answered yet) or it is not on
 * hold any more (the pharmacy moved it on itself): then it stays as it is and the outcome says why.
 *
 * Concurrency: the pharmacy order (and its order) is locked first, as every command on it does, and
 * the thread's status is read under that lock: of two admins resolving at once one resolves, the
 * other finds it resolved and changes nothing (one resolution, one history entry, one event).
 * Another organisation's thread is not found. Thread, status change and audit event in one transaction.
 */
export async function resolveIssueThread(
  organisationId: string,
  threadId: string,
  resolution: { note?: string | null; releaseOrder: boolean },
  actor: Extract<Actor, { type: "USER" }>,
): Promise<ResolveOutcome> {
  const note = resolutionNote(resolution.note);
  const db = await database();
  const found = await db.adminIssueThread.findFirst({
    where: { id: threadId, pharmacyOrder: { organisationId } },
    select: { pharmacyOrderId: true },
  });
  if (!found) throw new NotFoundError();
  return db.$transaction(async (tx) => {
    const order: LockedPharmacyOrder = await lockPharmacyOrderInScope(tx, { organisationId }, found.pharmacyOrderId);
    const thread = await tx.adminIssueThread.findUniqueOrThrow({
      where: { id: threadId },
      select: { status: true, pharmacyOrder: { select: { name: true } } },
    });
    if (thread.status !== "OPEN") return { resolved: false, releasedTo: null, keptOnHold: null };
    await tx.adminIssueThread.update({
      where: { id: threadId },
      data: { status: "RESOLVED", resolvedAt: new Date(), resolvedByUserId: actor.userId, resolutionNote: note },
    });
    // A resolution is an answer the pharmacy reads, above all when it returns the order to the queue.
    await markAnswerUnread(tx, order.id);

    let releasedTo: ReturnStatus | null = null;
    let keptOnHold: ResolveOutcome["keptOnHold"] = null;
    if (resolution.releaseOrder) {
      const otherOpen = await tx.adminIssueThread.count({ where: { pharmacyOrderId: order.id, status: "OPEN" } });
      if (order.status !== PHARMACY_ORDER_STATUS.onHold) keptOnHold = "not_on_hold";
      else if (otherOpen > 0) keptOnHold = "other_open_threads";
      else {
        releasedTo = await statusBeforeHold(tx, order.id);
        // Back to completed is a status change only: the first completion (completedAt) reduced the
        // stock and routed the payouts; completing again would do neither, but nothing else is due.
        if (releasedTo === PHARMACY_ORDER_STATUS.completed) await recordStatusChange(tx, order, releasedTo, actor);
        // Back to cancelled likewise: its cancellation returned the stock and settled the payouts already.
        else if (releasedTo === PHARMACY_ORDER_STATUS.cancelled) await recordCancelledStatus(tx, order, actor, null);
        else await applyStatusChange(tx, order, { status: releasedTo, comment: null }, actor);
      }
    }
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "issue_thread",
      entityId: threadId,
      action: "resolved",
      values: { name: thread.pharmacyOrder.name, outcome: releasedTo ? "released" : resolution.releaseOrder ? "stayed" : "held", orderStatus: releasedTo },
      summary:
        `Issue thread of ${thread.pharmacyOrder.name} resolved` +
        (releasedTo ? `; the order went back to ${releasedTo}` : resolution.releaseOrder ? "; the order stayed as it was" : "; the order stays on hold"),
      details: { pharmacyOrderId: order.id, releaseOrder: resolution.releaseOrder, releasedTo, keptOnHold, withNote: note !== null },
    });
    return { resolved: true, releasedTo, keptOnHold };
  });
}
