import { errorText } from "@/i18n/error-text";
import { database } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { BadRequestError, NotFoundError } from "@/server/domain/errors";
import { markAnswerUnread } from "./issue-thread-answers";
import { issueDescription, type IssueMessageSide } from "./issue-threads";
import { pharmacyOrderScopeWhere, type PharmacyOrderScope } from "./lock";

/**
 * A reply in an issue thread: by the organisation's admins (scope: the organisation, side ADMIN) or
 * by a pharmacist of the order's pharmacy (scope: their pharmacies, side PHARMACY). The text has the
 * thread description's rule (trimmed, not blank, ≤ 5000 characters; ValidationError on `body`).
 * A resolved thread takes no more replies (BadRequestError): a new question is a new clarification
 * request, which the admin list shows as open. A thread outside the scope is not found. One
 * transaction: the message and its audit event.
 */
export async function replyToIssueThread(
  scope: PharmacyOrderScope,
  threadId: string,
  reply: { body: string | null | undefined; side: IssueMessageSide },
  actor: Extract<Actor, { type: "USER" }>,
): Promise<{ messageId: string }> {
  const body = issueDescription(reply.body, "body");
  const db = await database();
  return db.$transaction(async (tx) => {
    const thread = await tx.adminIssueThread.findFirst({
      where: { id: threadId, pharmacyOrder: pharmacyOrderScopeWhere(scope) },
      select: { id: true, status: true, pharmacyOrderId: true, pharmacyOrder: { select: { name: true, organisationId: true } } },
    });
    if (!thread) throw new NotFoundError();
    if (thread.status !== "OPEN") throw new BadRequestError(errorText("issueThreads.resolvedNoReplies"), { code: "thread_resolved" });
    const message = await tx.adminIssueMessage.create({
      data: { threadId: thread.id, body, side: reply.side, authorType: "USER", authorUserId: actor.userId },
      select: { id: true },
    });
    // The pharmacy sees there is an answer to read (the queue's "New answer").
    if (reply.side === "ADMIN") await markAnswerUnread(tx, thread.pharmacyOrderId);
    await recordAuditEvent(tx, thread.pharmacyOrder.organisationId, actor, {
      entity: "issue_thread",
      entityId: thread.id,
      action: "replied",
      summary: `${reply.side === "ADMIN" ? "Admin" : "Pharmacy"} replied in the issue thread of ${thread.pharmacyOrder.name}`,
      values: { side: reply.side, name: thread.pharmacyOrder.name },
      details: { messageId: message.id, side: reply.side },
    });
    return { messageId: message.id };
  });
}
