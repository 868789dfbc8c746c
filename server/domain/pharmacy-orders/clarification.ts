import { database } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { applyStatusChange } from "./change-status";
import { assertOrderAsExpected, type ExpectedOrderState } from "./expected-state";
import { markAnswerUnread } from "./issue-thread-answers";
import { issueDescription, openIssueThread, type IssueMessageSide } from "./issue-threads";
import { announcePharmacyOrderUpdate, lockPharmacyOrderInScope, recordStatusChange, type PharmacyOrderScope } from "./lock";
import { PHARMACY_ORDER_STATUS } from "./statuses";

/**
 * A clarification request, opened by a pharmacist (scope: their pharmacies) or by the admin team
 * (scope: the organisation), in one transaction under the order's row lock: an admin issue thread
 * with the description, and the order put on hold — the on-hold rule of a status change
 * (applyStatusChange: history entry with the description as comment, pharmacy_order_updated).
 *
 * - Already on hold: the thread is added and pharmacy_order_updated sent (the spec's row "any |
 *   clarification request opened | on-hold | pharmacy_order_updated"); no history entry, since the
 *   status did not change.
 * - Completed: put on hold like any other status (the spec's "any"). It stays completed once
 *   (completedAt: its stock was reduced and its payouts routed, never again), and resolving the
 *   thread returns it to completed, the status before the hold (resolve-issue-thread.ts), without
 *   a second completion.
 * - Cancelled: put on hold too (the spec's "any"; the portals ask for confirmation first). Its
 *   cancellation's consequences stand (payouts flagged, stock as the pharmacist said); resolving the thread returns
 *   it to cancelled without cancelling it again (resolve-issue-thread.ts).
 *
 * The description is required: trimmed, not blank, at most 5000 characters (ValidationError on
 * `description`). An order outside the scope is not found.
 *
 * The thread records who asked: the admin team when the scope is the organisation, else the
 * pharmacy. The admin team's question waits to be read like its answers (the pharmacy queue's
 * "New answer", issue-thread-answers.ts): on an order already on hold nothing else would show it.
 * Audited (issue_thread opened) in the same transaction: an order already on hold gets no history
 * entry, so the thread's opening would otherwise be missing from the audit log.
 */
export async function openClarificationRequest(
  scope: PharmacyOrderScope,
  pharmacyOrderId: string,
  request: { description: string | null | undefined },
  actor: Actor,
  expected?: ExpectedOrderState,
): Promise<{ threadId: string; statusChanged: boolean }> {
  const db = await database();
  const description = issueDescription(request.description, "description");
  const side: IssueMessageSide = "organisationId" in scope ? "ADMIN" : "PHARMACY";
  return db.$transaction(async (tx) => {
    const order = await lockPharmacyOrderInScope(tx, scope, pharmacyOrderId);
    assertOrderAsExpected(order, expected);
    let opened: { threadId: string; statusChanged: boolean };
    if (order.status === PHARMACY_ORDER_STATUS.onHold) {
      const thread = await openIssueThread(tx, order.id, description, actor, side);
      await announcePharmacyOrderUpdate(tx, order);
      opened = { threadId: thread.id, statusChanged: false };
    } else if (order.status === PHARMACY_ORDER_STATUS.cancelled) {
      // The status table's clarification row (any → on-hold); PATCH …/status keeps refusing a cancelled order (its own row).
      const thread = await openIssueThread(tx, order.id, description, actor, side);
      await recordStatusChange(tx, order, PHARMACY_ORDER_STATUS.onHold, actor, description);
      opened = { threadId: thread.id, statusChanged: true };
    } else {
      const applied = await applyStatusChange(tx, order, { status: PHARMACY_ORDER_STATUS.onHold, comment: description, threadSide: side }, actor);
      opened = { threadId: applied.issueThreadId!, statusChanged: true };
    }
    if (side === "ADMIN") await markAnswerUnread(tx, order.id);
    const { name } = await tx.pharmacyOrder.findUniqueOrThrow({ where: { id: order.id }, select: { name: true } });
    await recordAuditEvent(tx, order.organisationId, actor, {
      entity: "issue_thread",
      entityId: opened.threadId,
      action: "opened",
      summary: `${side === "ADMIN" ? "Admin team" : "Pharmacy"} asked for clarification on ${name}`,
      values: { side, name },
      details: { side, pharmacyOrderId: order.id, putOnHold: opened.statusChanged },
    });
    return opened;
  });
}
