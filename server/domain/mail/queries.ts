import { database } from "@/server/db/client";
import type { MailStatus } from "@/server/db/generated/enums";
import { pageArgs, type Page } from "@/server/domain/paging";
import { mailerConfigured } from "@/server/mail/smtp";
import type { MailStatusName } from "./kinds";

export type OutboxFilter = { organisationId: string; status?: MailStatusName } & Page;

/**
 * The organisation's outbox, newest first (the admin tool's E-mail page): who, what kind, its
 * state, attempts and failure reason, never the bodies. A message still being retried shows the
 * reason of its last attempt. `mailerConfigured`: whether anything is sent at all (SMTP_URL).
 */
export async function listOutbox(filter: OutboxFilter) {
  const db = await database();
  const where = { organisationId: filter.organisationId, ...(filter.status ? { status: filter.status.toUpperCase() as MailStatus } : {}) };
  const [rows, total] = await Promise.all([
    db.mailMessage.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...pageArgs(filter),
      select: {
        id: true,
        kind: true,
        recipient: true,
        locale: true,
        subject: true,
        subjectId: true,
        status: true,
        attempts: true,
        lastError: true,
        smtpMessageId: true,
        sentAt: true,
        createdAt: true,
      },
    }),
    db.mailMessage.count({ where }),
  ]);
  const items = rows.map((row) => ({ ...row, status: row.status.toLowerCase() as MailStatusName }));
  return { items, total, mailerConfigured: mailerConfigured() };
}
export type OutboxItem = Awaited<ReturnType<typeof listOutbox>>["items"][number];
