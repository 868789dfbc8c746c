/** Inputs of the admin tool's e-mail procedures (the outbox page, the meeting e-mails setting), shared with their forms. */
import { z } from "zod";
import { MAIL_STATUSES, MEETING_EMAIL_RECIPIENTS } from "@/server/domain/mail/kinds";
import { uid } from "@/server/wire/schemas";

export const OUTBOX_MAX_LIMIT = 100;

export const listOutboxInput = z.object({
  status: z.enum(MAIL_STATUSES).optional(),
  page: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(OUTBOX_MAX_LIMIT).default(25),
});
export type ListOutboxInput = z.input<typeof listOutboxInput>;

export const mailUidInput = z.object({ mailUid: uid() });

export const changeMeetingEmailsInput = z.object({
  recipients: z.array(z.enum(MEETING_EMAIL_RECIPIENTS)).max(MEETING_EMAIL_RECIPIENTS.length),
});
