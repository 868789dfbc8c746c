import { errorText } from "@/i18n/error-text";
import { database, type Tx } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { BadRequestError, ValidationError } from "@/server/domain/errors";
import { assertOrderAsExpected, type ExpectedOrderState } from "./expected-state";
import { issueDescription, openIssueThread, type IssueMessageSide } from "./issue-threads";
import { announcePharmacyOrderUpdate, lockPharmacyOrder, recordStatusChange, type LockedPharmacyOrder } from "./lock";
import { cancelAsPharmacy } from "./reroute";
import { PHARMACY_ORDER_STATUS, SETTABLE_PHARMACY_ORDER_STATUSES, type SettablePharmacyOrderStatus } from "./statuses";

/** A cancelled order is final. */
const cancelledIsFinal = () => new BadRequestError(errorText("pharmacyOrders.cancelledIsFinal"), { code: "order_cancelled" });

export type StatusChange = {
  status: SettablePharmacyOrderStatus;
  comment?: string | null;
  /** Who asks in the issue thread that on-hold opens: the pharmacy, unless the admin team's clarification request (clarification.ts). */
  threadSide?: IssueMessageSide;
  /** Cancelling a completed order: its goods came back to the pharmacy, so its stock is returned (cancel.ts). */
  goodsReturned?: boolean;
};

/** A status the caller may set (every status but completed); otherwise a ValidationError on `status`. */
export function assertSettableStatus(status: string): asserts status is SettablePharmacyOrderStatus {
  if (!(SETTABLE_PHARMACY_ORDER_STATUSES as readonly string[]).includes(status)) {
    throw ValidationError.field("status", errorText("fields.oneOf", { values: SETTABLE_PHARMACY_ORDER_STATUSES.join(", ") }));
  }
}

/** The on-hold comment: required (trimmed, not blank, ≤ 5000 characters) to put an order on hold. */
export function onHoldComment(comment: string | null | undefined): string {
  return issueDescription(comment, "comment", errorText("pharmacyOrders.onHoldCommentRequired"));
}

/**
 * The status rule of the spec's table, for one order the caller has locked: a cancelled order is
 * final (BadRequestError); on-hold from another status needs a comment, which opens an admin issue
 * thread; re-sending the current status (on-hold included, no comment needed, no second thread)
 * changes nothing but still sends pharmacy_order_updated, as the table's first row says of every
 * PATCH …/status (the payload carries the full current state; no history entry, since nothing
 * changed: docs/decisions/intake.md#orders-fulfilment-and-pharmacy-orders); cancelled undoes a completion and, for an order never
 * completed, gives its fulfillment back for re-routing (cancelAsPharmacy: only the pharmacy's doors
 * reach a cancellation here, since an admin's clarification and its resolution never cancel).
 * Completed is never set here.
 * Returns whether the order changed, and the issue thread it opened. The one place for this rule: PATCH …/status, bulk updates,
 * clarification requests.
 */
export async function applyStatusChange(
  tx: Tx,
  order: LockedPharmacyOrder,
  change: StatusChange,
  actor: Actor,
): Promise<{ changed: boolean; issueThreadId: string | null }> {
  assertSettableStatus(change.status);
  if (order.status === PHARMACY_ORDER_STATUS.cancelled) throw cancelledIsFinal();
  if (order.status === change.status) {
    await announcePharmacyOrderUpdate(tx, order);
    return { changed: false, issueThreadId: null };
  }
  let comment: string | null = null;
  let issueThreadId: string | null = null;
  if (change.status === PHARMACY_ORDER_STATUS.onHold) {
    comment = onHoldComment(change.comment);
    issueThreadId = (await openIssueThread(tx, order.id, comment, actor, change.threadSide)).id;
  }
  if (change.status === PHARMACY_ORDER_STATUS.cancelled) await cancelAsPharmacy(tx, order, actor, null, { goodsReturned: change.goodsReturned });
  else await recordStatusChange(tx, order, change.status, actor, comment);
  return { changed: true, issueThreadId };
}

/**
 * PATCH …/status (and the portal's single-order status change): applyStatusChange in one transaction
 * under the order's row lock; with `expected` (the portal), refused when the order changed meanwhile.
 */
export async function changePharmacyOrderStatus(
  pharmacyId: string,
  pharmacyOrderId: string,
  change: StatusChange,
  actor: Actor,
  expected?: ExpectedOrderState,
): Promise<void> {
  const db = await database();
  await db.$transaction(async (tx) => {
    const order = await lockPharmacyOrder(tx, pharmacyId, pharmacyOrderId);
    assertOrderAsExpected(order, expected);
    await applyStatusChange(tx, order, change, actor);
  });
}
