import nodemailer, { type Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { config } from "@/server/config";

/**
 * The SMTP client e-mail goes out through (nodemailer). Its relay is the operator's SMTP_URL: a
 * destination the operator configures, not one a tenant or patient supplies, so it is not subject
 * to the guarded HTTP client's address rule (docs/security.md#outgoing-requests). Tenants and
 * patients supply only recipient addresses, which the relay delivers; the service connects to
 * nothing else. The URL carries the relay's credentials: it is never logged, and no error of this
 * module quotes it.
 */
export type OutgoingMail = {
  /** The Message-ID header, `<id@domain>`: the same on every attempt, so a receiver can tell a repeat. */
  messageId: string;
  to: string;
  subject: string;
  text: string;
  html: string;
};

export type SentMail = { messageId: string; response: string };

/**
 * A refused or failed SMTP attempt. `permanent` when the server answered 5xx (the same message
 * would be refused again: an unknown recipient, a rejected sender, wrong credentials); a 4xx
 * answer, a timeout or a connection that failed may succeed later.
 */
export class SmtpError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    /** The server's reply code (550), or nodemailer's error code (ECONNECTION, ETIMEDOUT, EAUTH): names what failed without quoting it. */
    readonly code: string = "unknown",
  ) {
    super(message);
    this.name = "SmtpError";
  }
}

/** One connection per message, each step bounded: a relay that hangs fails the attempt, which is retried. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** The transport options of an smtp:// or smtps:// URL (checked by server/config.ts). */
function transportOptions(url: string): SMTPTransport.Options {
  const parsed = new URL(url);
  const secure = parsed.protocol.toLowerCase() === "smtps:";
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ""),
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
    secure,
    auth: parsed.username ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } : undefined,
    ...TIMEOUTS,
    logger: false,
    debug: false,
  };
}

const holder = globalThis as unknown as { __rxSmtp?: { url: string; transport: Transporter<SMTPTransport.SentMessageInfo> } };

/** The transport of the configured URL (a new one when the configuration changed: tests, a restart). */
function transport(url: string): Transporter<SMTPTransport.SentMessageInfo> {
  if (holder.__rxSmtp?.url !== url) {
    holder.__rxSmtp?.transport.close();
    holder.__rxSmtp = { url, transport: nodemailer.createTransport(transportOptions(url)) };
  }
  return holder.__rxSmtp.transport;
}

/** Whether e-mail can be sent: SMTP_URL (with MAIL_FROM, config.ts) is set. */
export function mailerConfigured(): boolean {
  return Boolean(config().SMTP_URL);
}

/** The domain of the sender address, for Message-IDs. */
export function senderDomain(): string {
  const from = config().MAIL_FROM ?? "";
  return /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? "localhost";
}

/** Sends one message through the configured relay; SmtpError when it is refused or fails. */
export async function sendSmtp(mail: OutgoingMail): Promise<SentMail> {
  const { SMTP_URL, MAIL_FROM } = config();
  if (!SMTP_URL || !MAIL_FROM) throw new SmtpError("No mailer is configured (SMTP_URL is not set).", false, "no_mailer");
  try {
    const info = await transport(SMTP_URL).sendMail({
      from: MAIL_FROM,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: mail.messageId,
    });
    return { messageId: info.messageId, response: String(info.response ?? "") };
  } catch (error) {
    const { responseCode, code } = error as { responseCode?: unknown; code?: unknown };
    const message = error instanceof Error ? error.message : String(error);
    const permanent = typeof responseCode === "number" && responseCode >= 500 && responseCode < 600;
    throw new SmtpError(message, permanent, typeof responseCode === "number" ? String(responseCode) : typeof code === "string" ? code : "unknown");
  }
}
