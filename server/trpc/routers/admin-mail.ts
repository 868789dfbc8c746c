/**
 * The admin tool's e-mail: the organisation's outbox (each message's state, attempts and failure
 * reason; a failed one sent again) and the setting "meeting e-mails". Always the admin's
 * organisation; another organisation's message is not found. docs/decisions/operations.md#e-mail.
 */
import { changeMeetingEmailRecipients, meetingEmailSetting } from "@/server/domain/mail/meeting-email-setting";
import { listOutbox, type OutboxItem } from "@/server/domain/mail/queries";
import { resendMail } from "@/server/domain/mail/resend-mail";
import { adminProcedure, router } from "@/server/trpc/init";
import { unix, unixOrNull } from "@/server/wire/format";
import { changeMeetingEmailsInput, listOutboxInput, mailUidInput } from "./admin-mail.schemas";

const presentMail = (m: OutboxItem) => ({
  uid: m.id,
  kind: m.kind,
  recipient: m.recipient,
  locale: m.locale,
  subject: m.subject,
  subjectUid: m.subjectId,
  status: m.status,
  attempts: m.attempts,
  lastError: m.lastError,
  smtpMessageId: m.smtpMessageId,
  createdAt: unix(m.createdAt),
  sentAt: unixOrNull(m.sentAt),
});

export const adminMailRouter = router({
  list: adminProcedure.input(listOutboxInput).query(async ({ ctx, input }) => {
    const { items, total, mailerConfigured } = await listOutbox({
      organisationId: ctx.scope.organisationId,
      status: input.status,
      page: input.page,
      limit: input.limit,
    });
    return { items: items.map(presentMail), total, page: input.page, totalPages: Math.ceil(total / input.limit), mailerConfigured };
  }),

  /** Sends a failed message again: pending, with a new attempt. */
  resend: adminProcedure.input(mailUidInput).mutation(async ({ ctx, input }) => resendMail(ctx.scope.organisationId, ctx.user.id, input.mailUid)),

  meetingEmails: adminProcedure.query(async ({ ctx }) => meetingEmailSetting(ctx.scope.organisationId)),

  changeMeetingEmails: adminProcedure
    .input(changeMeetingEmailsInput)
    .mutation(async ({ ctx, input }) => ({ recipients: await changeMeetingEmailRecipients(ctx.scope.organisationId, ctx.user.id, input.recipients) })),
});
