import { randomUUID } from "node:crypto";
import type { Tx } from "@/server/db/client";
import { enqueueTask } from "@/server/domain/tasks/enqueue";
import { isUserLocale, type UserLocale } from "@/server/domain/users/locales";
import { sealSecret } from "@/server/domain/webhooks/secret-box";
import { mailerConfigured } from "@/server/mail/smtp";
import { renderMail, type MailTemplate } from "./templates";

/**
 * The e-mail outbox (docs/decisions/operations.md#e-mail). A message is written in the transaction of
 * the change that causes it, with its mail.send background task: it exists exactly when the change
 * commits, is sent after the commit (the request that caused it never waits for SMTP), and survives
 * a restart. Without a mailer (SMTP_URL unset) nothing is recorded: the callers show their links
 * as before, and no e-mail is owed later when a mailer is configured.
 */
export type QueuedMail = {
  organisationId: string;
  to: string;
  locale: UserLocale;
  /** What the message is about (a user, a pharmacy order, a meeting). */
  subjectId: string | null;
  template: MailTemplate;
};

/**
 * The language of an e-mail: the first saved choice among the candidates (the recipient's own, then
 * who acted for them), else German, the language of the platform's pharmacies and patients.
 */
export function mailLocale(...candidates: (string | null | undefined)[]): UserLocale {
  return candidates.find(isUserLocale) ?? "de";
}

/**
 * Records one message and its task in the caller's transaction, rendered now and sealed
 * (server/domain/webhooks/secret-box.ts: an invitation's body holds its one-time link). Returns its
 * id, or null when no mailer is configured (nothing recorded).
 */
export async function queueMail(tx: Tx, mail: QueuedMail): Promise<string | null> {
  if (!mailerConfigured()) return null;
  const rendered = renderMail(mail.template, mail.locale);
  const id = randomUUID();
  await tx.mailMessage.create({
    data: {
      id,
      organisationId: mail.organisationId,
      kind: rendered.kind,
      recipient: mail.to.trim(),
      locale: mail.locale,
      subject: rendered.subject,
      sealedText: sealSecret(rendered.text),
      sealedHtml: sealSecret(rendered.html),
      subjectId: mail.subjectId,
    },
  });
  await enqueueTask(tx, "mail.send", { mailId: id });
  return id;
}
