/**
 * The vocabulary of the e-mail outbox (imports nothing: the admin tool's list and settings read it).
 * docs/decisions/operations.md#e-mail.
 */
export const MAIL_KINDS = [
  "invitation",
  "password_reset",
  "pharmacy_order_created",
  "meeting_confirmed",
  "meeting_cancelled",
  "meeting_rescheduled",
  "doctor_requests_waiting",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** A message's state in the outbox (MailMessage.status, lower-cased on the wire). */
export const MAIL_STATUSES = ["pending", "sent", "failed"] as const;
export type MailStatusName = (typeof MAIL_STATUSES)[number];

/** Who the organisation's meeting e-mails go to (Organisation.meetingEmailRecipients); none: off, the default. */
export const MEETING_EMAIL_RECIPIENTS = ["patient", "doctor", "admins"] as const;
export type MeetingEmailRecipient = (typeof MEETING_EMAIL_RECIPIENTS)[number];
