import { errorText } from "@/i18n/error-text";
import { database } from "@/server/db/client";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { ConflictError, NotFoundError } from "@/server/domain/errors";
import { enqueueTask } from "@/server/domain/tasks/enqueue";
import { mailerConfigured } from "@/server/mail/smtp";

/**
 * An admin sends a failed message again (the outbox page): it is pending once more with a new
 * mail.send task, in one transaction with its audit event. The row is locked, so two clicks at once
 * queue it once (the second finds it pending: nothing more to do). A sent message is never sent
 * again; without a mailer nothing can be sent.
 */
export async function resendMail(organisationId: string, userId: string, mailId: string): Promise<{ queued: boolean }> {
  if (!mailerConfigured()) throw new ConflictError(errorText("mail.noMailer"), { code: "no_mailer" });
  const db = await database();
  return db.$transaction(async (tx) => {
    const [mail] = await tx.$queryRaw<{ status: string; kind: string; recipient: string }[]>`
      SELECT "status"::text AS "status", "kind", "recipient" FROM "MailMessage"
       WHERE "id" = ${mailId} AND "organisationId" = ${organisationId}
         FOR UPDATE`;
    if (!mail) throw new NotFoundError();
    if (mail.status === "SENT") throw new ConflictError(errorText("mail.alreadySent"), { code: "already_sent" });
    if (mail.status === "PENDING") return { queued: false };
    await tx.mailMessage.update({ where: { id: mailId }, data: { status: "PENDING", lastError: null, leaseUntil: null } });
    await enqueueTask(tx, "mail.send", { mailId });
    await recordAuditEvent(tx, organisationId, { type: "USER", userId }, {
      entity: "mail_message",
      entityId: mailId,
      action: "resent",
      values: { kind: mail.kind.replaceAll("_", " "), recipient: mail.recipient },
      summary: `E-mail (${mail.kind.replaceAll("_", " ")}) to ${mail.recipient} sent again`,
    });
    return { queued: true };
  });
}
