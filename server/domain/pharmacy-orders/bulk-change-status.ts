import { errorText, type Message } from "@/i18n/error-text";
import { database } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { BadRequestError, NotFoundError, ValidationError, type DomainError, type FieldMessages } from "@/server/domain/errors";
import { applyStatusChange, assertSettableStatus, onHoldComment, type StatusChange } from "./change-status";
import { lockPharmacyOrderInScope } from "./lock";
import { PHARMACY_ORDER_STATUS } from "./statuses";

const BULK_STATUS_CHANGE_LIMIT = 200;

export type BulkStatusChangeError = "not_found" | "bad_request" | "invalid";

/**
 * One selected order's outcome; `changed` false means it already had the status (nothing recorded).
 * A refusal's message and fields as thrown (keyed), for the portal to word in its caller's language.
 */
export type BulkStatusChangeResult =
  | { uid: string; ok: true; changed: boolean }
  | { uid: string; ok: false; error: BulkStatusChangeError; message: Message; fields?: FieldMessages };

/**
 * The portal's bulk status update: the rule of a single change (applyStatusChange) for each of
 * 1–200 selected orders (duplicates count once), **per order**: each order in its own transaction
 * under its row lock, so one refused order (cancelled, out of scope) does not undo the others, and
 * each changed order gets its own history entry and pharmacy_order_updated exactly as a single
 * change would. Orders are taken in uid order, one lock at a time, so concurrent bulk updates over
 * overlapping selections never deadlock and each order sees the previous change's result.
 *
 * The change itself is checked once, before any order is touched (ValidationError, nothing changed):
 * the status must be settable and on-hold needs a comment. Per order: unknown or outside
 * `pharmacyIds` → not_found; cancelled → bad_request. Results come in the order of first mention.
 * Unexpected failures (database) propagate; orders handled before stay changed, and running the
 * same update again is safe (orders that already have the status are no-ops).
 */
export async function bulkChangePharmacyOrderStatus(
  pharmacyIds: readonly string[],
  pharmacyOrderIds: readonly string[],
  change: StatusChange,
  actor: Actor,
): Promise<BulkStatusChangeResult[]> {
  const db = await database();
  const uids = [...new Set(pharmacyOrderIds)];
  if (uids.length === 0) throw ValidationError.field("pharmacy_order_uids", errorText("pharmacyOrders.selectAtLeastOne"));
  if (uids.length > BULK_STATUS_CHANGE_LIMIT) {
    throw ValidationError.field("pharmacy_order_uids", errorText("fields.maxItems", { maximum: BULK_STATUS_CHANGE_LIMIT }));
  }
  assertSettableStatus(change.status);
  const checked: StatusChange =
    change.status === PHARMACY_ORDER_STATUS.onHold
      ? { status: change.status, comment: onHoldComment(change.comment) }
      : { status: change.status, goodsReturned: change.status === PHARMACY_ORDER_STATUS.cancelled && change.goodsReturned === true };

  const results = new Map<string, BulkStatusChangeResult>();
  for (const uid of [...uids].sort()) {
    try {
      const { changed } = await db.$transaction(async (tx) => {
        const order = await lockPharmacyOrderInScope(tx, { pharmacyIds }, uid);
        return applyStatusChange(tx, order, checked, actor);
      });
      results.set(uid, { uid, ok: true, changed });
    } catch (error) {
      results.set(uid, failure(uid, error));
    }
  }
  return uids.map((uid) => results.get(uid)!);
}

function failure(uid: string, error: unknown): BulkStatusChangeResult {
  const messageOf = (refusal: DomainError) => refusal.text ?? refusal.message;
  if (error instanceof NotFoundError) return { uid, ok: false, error: "not_found", message: messageOf(error) };
  if (error instanceof BadRequestError) return { uid, ok: false, error: "bad_request", message: messageOf(error) };
  if (error instanceof ValidationError) return { uid, ok: false, error: "invalid", message: messageOf(error), fields: error.fieldMessages };
  throw error;
}
