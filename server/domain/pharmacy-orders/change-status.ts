import type { Db } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { BadRequestError, ValidationError } from "@/server/domain/errors";
import { lockPharmacyOrder, recordStatusChange } from "./lock";
import { PHARMACY_ORDER_STATUS, type SettablePharmacyOrderStatus } from "./statuses";

export const ON_HOLD_COMMENT_REQUIRED = "A comment is required when setting an order on hold";

/**
 * PATCH …/status, by the spec's table: a cancelled order is final (400 Bad request); on-hold from
 * another status needs a comment, which opens an admin issue thread; re-sending on-hold to an
 * on-hold order is accepted and changes nothing; completed is never set here (the caller's schema
 * refuses it). Re-sending the current status is an idempotent no-op: no history, no event.
 */
export async function changePharmacyOrderStatus(
  db: Db,
  pharmacyId: string,
  pharmacyOrderId: string,
  change: { status: SettablePharmacyOrderStatus; comment?: string | null },
  actor: Actor,
): Promise<void> {
  await db.$transaction(async (tx) => {
    const order = await lockPharmacyOrder(tx, pharmacyId, pharmacyOrderId);
    if (order.status === PHARMACY_ORDER_STATUS.cancelled) throw new BadRequestError();
    if (order.status === change.status) return;
    let comment: string | null = null;
    if (change.status === PHARMACY_ORDER_STATUS.onHold) {
      comment = change.comment?.trim() || null;
      if (!comment) throw ValidationError.field("comment", ON_HOLD_COMMENT_REQUIRED);
      await tx.adminIssueThread.create({
        data: {
          pharmacyOrderId,
          description: comment,
          openedByType: actor.type,
          openedByApiKeyId: actor.type === "API_KEY" ? actor.apiKeyId : null,
          openedByUserId: actor.type === "USER" ? actor.userId : null,
        },
      });
    }
    await recordStatusChange(tx, order, change.status, actor, comment);
  });
}
