import { errorText } from "@/i18n/error-text";
import { database } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { BadRequestError } from "@/server/domain/errors";
import { applyStatusChange } from "./change-status";
import { assertOrderAsExpected, type ExpectedOrderState } from "./expected-state";
import { issueDescription, openIssueThread } from "./issue-threads";
import { announcePharmacyOrderUpdate, lockPharmacyOrderInScope, type PharmacyOrderScope } from "./lock";
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
 * - Cancelled: BadRequestError (a documented deviation, docs/spec-gaps.md): its stock was returned
 *   and its payouts flagged; a hold would suggest it can still be dispensed.
 *
 * The description is required: trimmed, not blank, at most 5000 characters (ValidationError on
 * `description`). An order outside the scope is not found.
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
  return db.$transaction(async (tx) => {
    const order = await lockPharmacyOrderInScope(tx, scope, pharmacyOrderId);
    assertOrderAsExpected(order, expected);
    if (order.status === PHARMACY_ORDER_STATUS.cancelled) {
      throw new BadRequestError(errorText("pharmacyOrders.cancelledNoClarification"));
    }
    if (order.status === PHARMACY_ORDER_STATUS.onHold) {
      const thread = await openIssueThread(tx, order.id, description, actor);
      await announcePharmacyOrderUpdate(tx, order);
      return { threadId: thread.id, statusChanged: false };
    }
    const applied = await applyStatusChange(tx, order, { status: PHARMACY_ORDER_STATUS.onHold, comment: description }, actor);
    return { threadId: applied.issueThreadId!, statusChanged: true };
  });
}
