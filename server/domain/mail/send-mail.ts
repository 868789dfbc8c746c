import { database } from "@/server/db/client";
import { openSecret } from "@/server/domain/webhooks/secret-box";
import { log } from "@/server/log";
import { sendSmtp, senderDomain, SmtpError } from "@/server/mail/smtp";

/**
 * While a sender holds a message its SMTP conversation runs (each step of it is bounded well
 * within this: server/mail/smtp.ts); a sender that died lets go when it runs out.
 */
const LEASE_MS = 2 * 60_000;

export type SendOutcome = "sent" | "failed" | "not_pending";

/**
 * Sends one message of the outbox (the mail.send task). It is claimed first by one conditional
 * update (pending and not held by another sender): of two runners, or a runner and the operator's
 * command, exactly one sends it, and a sent message is never claimed again. A 5xx answer fails it
 * for good with the server's reason; anything else (4xx, a timeout, a relay that is down) is
 * thrown, so the task runner retries it with its backoff, and after the task's last attempt the
 * message is failed with the reason. Once sent, its bodies (which may hold a one-time link) are erased.
 * Only a process that dies after the relay accepted the message and before this records it can
 * make a second copy: the same Message-ID then tells the receiver it is a repeat.
 */
export async function sendQueuedMail(mailId: string, attempt: { last: boolean } = { last: false }): Promise<SendOutcome> {
  const db = await database();
  const [claimed] = await db.$queryRaw<{ recipient: string; subject: string; sealedText: string | null; sealedHtml: string | null }[]>`
    UPDATE "MailMessage"
       SET "leaseUntil" = now() + ${LEASE_MS} * interval '1 millisecond', "attempts" = "attempts" + 1, "updatedAt" = now()
     WHERE "id" = ${mailId} AND "status" = 'PENDING' AND ("leaseUntil" IS NULL OR "leaseUntil" < now())
 RETURNING "recipient", "subject", "sealedText", "sealedHtml"`;
  if (!claimed) {
    const current = await db.mailMessage.findUnique({ where: { id: mailId }, select: { status: true } });
    // Held by another sender: this attempt comes back later and finds it sent (or its sender gone).
    if (current?.status === "PENDING") throw new Error("The message is being sent by another attempt.");
    return "not_pending";
  }

  const pending = { id: mailId, status: "PENDING" as const };
  try {
    if (claimed.sealedText === null || claimed.sealedHtml === null) throw new SmtpError("The message has no body.", true, "no_body");
    const sent = await sendSmtp({
      messageId: `<${mailId}@${senderDomain()}>`,
      to: claimed.recipient,
      subject: claimed.subject,
      text: openSecret(claimed.sealedText),
      html: openSecret(claimed.sealedHtml),
    });
    await db.mailMessage.updateMany({
      where: pending,
      data: {
        status: "SENT",
        sentAt: new Date(),
        smtpMessageId: sent.messageId,
        smtpResponse: sent.response.slice(0, 500),
        lastError: null,
        leaseUntil: null,
        sealedText: null,
        sealedHtml: null,
      },
    });
    return "sent";
  } catch (error) {
    const lastError = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
    const permanent = error instanceof SmtpError && error.permanent;
    const final = permanent || attempt.last;
    await db.mailMessage.updateMany({ where: pending, data: { lastError, leaseUntil: null, ...(final ? { status: "FAILED" as const } : {}) } });
    // The reason is the outbox's to show (an SMTP answer may quote the recipient's address): not logged.
    log.warn(final ? "e-mail failed" : "e-mail not sent; it will be retried", { mailId, permanent });
    if (permanent) return "failed";
    // The task runner records and logs this: it names what failed, the outbox keeps the words.
    throw new Error(`The e-mail was not sent (${error instanceof SmtpError ? error.code : "error"}); the reason is in the outbox.`);
  }
}
