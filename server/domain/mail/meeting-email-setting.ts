import { database } from "@/server/db/client";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { mailerConfigured } from "@/server/mail/smtp";
import { MEETING_EMAIL_RECIPIENTS, type MeetingEmailRecipient } from "./kinds";

/**
 * The organisation setting "meeting e-mails": who is written to about appointment changes (none:
 * off, the default), and whether e-mail goes out at all (SMTP_URL).
 */
export async function meetingEmailSetting(organisationId: string): Promise<{ recipients: MeetingEmailRecipient[]; mailerConfigured: boolean }> {
  const db = await database();
  const organisation = await db.organisation.findUniqueOrThrow({ where: { id: organisationId }, select: { meetingEmailRecipients: true } });
  return { recipients: MEETING_EMAIL_RECIPIENTS.filter((r) => organisation.meetingEmailRecipients.includes(r)), mailerConfigured: mailerConfigured() };
}

const words = (recipients: readonly string[]) => (recipients.length === 0 ? "off" : recipients.join(", "));

/**
 * An admin changes who gets meeting e-mails, audited with the values before and after; the
 * organisation row is locked, so two admins saving at once are both recorded in order. Saving
 * the same choice again changes and records nothing.
 */
export async function changeMeetingEmailRecipients(organisationId: string, userId: string, chosen: readonly MeetingEmailRecipient[]): Promise<MeetingEmailRecipient[]> {
  const recipients = MEETING_EMAIL_RECIPIENTS.filter((r) => chosen.includes(r));
  const db = await database();
  return db.$transaction(async (tx) => {
    const [current] = await tx.$queryRaw<{ meetingEmailRecipients: string[] }[]>`
      SELECT "meetingEmailRecipients" FROM "Organisation" WHERE "id" = ${organisationId} FOR UPDATE`;
    const before = MEETING_EMAIL_RECIPIENTS.filter((r) => current.meetingEmailRecipients.includes(r));
    if (before.join() === recipients.join()) return recipients;
    await tx.organisation.update({ where: { id: organisationId }, data: { meetingEmailRecipients: recipients } });
    await recordAuditEvent(tx, organisationId, { type: "USER", userId }, {
      entity: "setting",
      entityId: organisationId,
      action: "meeting_emails_changed",
      values: { from: words(before), to: words(recipients) },
      summary: `Meeting e-mails: ${words(before)} → ${words(recipients)}`,
      details: { from: before, to: recipients },
    });
    return recipients;
  });
}
