import type { Tx } from "@/server/db/client";
import { mailerConfigured } from "@/server/mail/smtp";
import { MEETING_EMAIL_RECIPIENTS, type MeetingEmailRecipient } from "./kinds";
import { mailLocale, queueMail } from "./outbox";

export type MeetingChange = { kind: "meeting_confirmed" | "meeting_cancelled" } | { kind: "meeting_rescheduled"; previousStartsAt: Date };

type Recipient = { email: string; name: string | null; locale: string | null };

/**
 * The meeting e-mails of a scheduled appointment's change (the spec: "Emails to patient, doctor or
 * admins on confirmation, cancellation or rescheduling are a separate, default-off organisation
 * setting; they do not change the webhook; a reschedule sends at most one email"), queued in the
 * change's transaction: one message per recipient the organisation chose (its setting
 * meetingEmailRecipients: none by default) who has an address, one address once. Returns how many. A reschedule is
 * one change (its new meeting, naming the old start), never a cancellation and a confirmation.
 * The patient is written to in German (patients have no saved language); a doctor or an admin
 * in their saved language. docs/decisions/operations.md#e-mail.
 */
export async function queueMeetingMails(tx: Tx, organisationId: string, meetingId: string, change: MeetingChange): Promise<number> {
  if (!mailerConfigured()) return 0;
  const organisation = await tx.organisation.findUniqueOrThrow({ where: { id: organisationId }, select: { displayName: true, meetingEmailRecipients: true } });
  const roles = new Set(organisation.meetingEmailRecipients.filter((r): r is MeetingEmailRecipient => (MEETING_EMAIL_RECIPIENTS as readonly string[]).includes(r)));
  if (roles.size === 0) return 0;
  const meeting = await tx.meeting.findUniqueOrThrow({
    where: { id: meetingId },
    select: {
      startsAt: true,
      endsAt: true,
      doctor: { select: { displayName: true, email: true, user: { select: { email: true, locale: true, deactivatedAt: true } } } },
      patient: {
        select: {
          displayName: true,
          email: true,
          shopCustomers: { where: { email: { not: null } }, select: { email: true }, orderBy: { createdAt: "desc" }, take: 1 },
        },
      },
    },
  });

  const recipients: Recipient[] = [];
  if (roles.has("patient")) {
    const email = meeting.patient.email ?? meeting.patient.shopCustomers[0]?.email;
    if (email) recipients.push({ email, name: meeting.patient.displayName, locale: null });
  }
  if (roles.has("doctor")) {
    const user = meeting.doctor.user?.deactivatedAt ? null : meeting.doctor.user;
    const email = meeting.doctor.email ?? user?.email;
    if (email) recipients.push({ email, name: meeting.doctor.displayName, locale: user?.locale ?? null });
  }
  if (roles.has("admins")) {
    const admins = await tx.user.findMany({
      where: { organisationId, role: "ADMIN", deactivatedAt: null },
      select: { email: true, displayName: true, locale: true },
      orderBy: { createdAt: "asc" },
    });
    recipients.push(...admins.map((a) => ({ email: a.email, name: a.displayName, locale: a.locale })));
  }

  // One e-mail per address (a doctor may also be an admin), in a saved language when any of its people has one.
  const byAddress = new Map<string, Recipient>();
  for (const recipient of recipients) {
    const address = recipient.email.trim().toLowerCase();
    const first = byAddress.get(address);
    if (!first) byAddress.set(address, { ...recipient });
    else first.locale ??= recipient.locale;
  }

  const minutes = Math.round(((meeting.endsAt ?? meeting.startsAt).getTime() - meeting.startsAt.getTime()) / 60_000);
  for (const recipient of byAddress.values()) {
    const common = {
      name: recipient.name,
      organisation: organisation.displayName,
      patient: meeting.patient.displayName,
      doctor: meeting.doctor.displayName,
      startsAt: meeting.startsAt,
      minutes,
    };
    await queueMail(tx, {
      organisationId,
      to: recipient.email,
      locale: mailLocale(recipient.locale),
      subjectId: meetingId,
      template: change.kind === "meeting_rescheduled" ? { kind: change.kind, previousStartsAt: change.previousStartsAt, ...common } : { kind: change.kind, ...common },
    });
  }
  return byAddress.size;
}
