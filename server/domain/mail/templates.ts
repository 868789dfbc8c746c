/**
 * The e-mails' words, in German and English: the "mail" namespace of messages/*.json, worded here
 * into a subject, a plain-text body and a simple HTML body from the same parts. Everything that is
 * not our own wording (names a tenant, a patient or an admin wrote, links) reaches the HTML only
 * escaped. Times read in German time (Europe/Berlin) with the zone's name.
 * docs/decisions/operations.md#e-mail.
 */
import { createTranslator } from "next-intl";
import de from "@/messages/de.json";
import en from "@/messages/en.json";
import type { UserLocale } from "@/server/domain/users/locales";
import type { MailKind } from "./kinds";

export const MAIL_TIME_ZONE = "Europe/Berlin";

const FORMATS = {
  dateTime: {
    moment: { weekday: "long", day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" },
  },
} as const;

const TRANSLATORS = {
  en: createTranslator({ locale: "en", messages: en, namespace: "mail", timeZone: MAIL_TIME_ZONE, formats: FORMATS }),
  de: createTranslator({ locale: "de", messages: de, namespace: "mail", timeZone: MAIL_TIME_ZONE, formats: FORMATS }),
} satisfies Record<UserLocale, unknown>;

type Meeting = {
  /** The recipient's name for the greeting, when known. */
  name: string | null;
  organisation: string;
  patient: string;
  doctor: string;
  startsAt: Date;
  minutes: number;
};

/** What each kind of e-mail is made of (the values its template words). */
export type MailTemplate =
  | { kind: "invitation"; name: string; organisation: string; inviter: string | null; link: string; expiresAt: Date }
  | { kind: "password_reset"; name: string; email: string; organisation: string; link: string; expiresAt: Date }
  | { kind: "pharmacy_order_created"; organisation: string; pharmacy: string; orderName: string; itemCount: number; link: string }
  | ({ kind: "meeting_confirmed" | "meeting_cancelled" } & Meeting)
  | ({ kind: "meeting_rescheduled"; previousStartsAt: Date } & Meeting)
  // Counts only: the e-mail names no patient (docs/decisions/prescriptions.md#new-request-e-mails-to-doctors).
  | { kind: "doctor_requests_waiting"; name: string; organisation: string; newCount: number; waitingCount: number; link: string };

export type RenderedMail = { subject: string; text: string; html: string };

/** A message's parts, before they become text and HTML. */
type Parts = { subject: string; name: string | null; paragraphs: string[]; action: { label: string; url: string } | null; organisation: string };

const meeting = (m: Meeting) => ({ organisation: m.organisation, name: m.name, action: null });
const meetingValues = (m: Meeting) => ({ patient: m.patient, doctor: m.doctor, startsAt: m.startsAt, minutes: m.minutes });

function partsOf(template: MailTemplate, locale: UserLocale): Parts {
  const t = TRANSLATORS[locale];
  const base = { organisation: template.organisation };
  switch (template.kind) {
    case "invitation":
      return {
        ...base,
        subject: t("invitation.subject", { organisation: template.organisation }),
        name: template.name,
        paragraphs: [
          template.inviter
            ? t("invitation.body", { inviter: template.inviter, organisation: template.organisation })
            : t("invitation.bodyNoInviter", { organisation: template.organisation }),
          t("linkValidity", { expiresAt: template.expiresAt }),
        ],
        action: { label: t("invitation.action"), url: template.link },
      };
    case "password_reset":
      return {
        ...base,
        subject: t("passwordReset.subject", { organisation: template.organisation }),
        name: template.name,
        paragraphs: [
          t("passwordReset.body", { email: template.email, organisation: template.organisation }),
          t("linkValidity", { expiresAt: template.expiresAt }),
          t("passwordReset.ignore"),
        ],
        action: { label: t("passwordReset.action"), url: template.link },
      };
    case "pharmacy_order_created":
      return {
        ...base,
        subject: t("pharmacyOrder.subject", { orderName: template.orderName }),
        name: null,
        paragraphs: [
          t("pharmacyOrder.body", { organisation: template.organisation, pharmacy: template.pharmacy, orderName: template.orderName, count: template.itemCount }),
          t("pharmacyOrder.privacy"),
        ],
        action: { label: t("pharmacyOrder.action"), url: template.link },
      };
    case "doctor_requests_waiting":
      return {
        ...base,
        subject: t("requestsWaiting.subject", { count: template.newCount }),
        name: template.name,
        paragraphs: [
          t("requestsWaiting.body", { organisation: template.organisation, count: template.newCount, waiting: template.waitingCount }),
          t("requestsWaiting.privacy"),
          t("requestsWaiting.rhythm"),
        ],
        action: { label: t("requestsWaiting.action"), url: template.link },
      };
    case "meeting_confirmed":
      return { ...meeting(template), subject: t("meeting.confirmedSubject", { startsAt: template.startsAt }), paragraphs: [t("meeting.confirmed", meetingValues(template))] };
    case "meeting_cancelled":
      return { ...meeting(template), subject: t("meeting.cancelledSubject", { startsAt: template.startsAt }), paragraphs: [t("meeting.cancelled", meetingValues(template))] };
    case "meeting_rescheduled":
      return {
        ...meeting(template),
        subject: t("meeting.rescheduledSubject", { startsAt: template.startsAt }),
        paragraphs: [t("meeting.rescheduled", { ...meetingValues(template), previousStartsAt: template.previousStartsAt })],
      };
  }
}

/** Text for HTML: the five characters that could open markup or end an attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

const paragraph = (text: string, style = "") => `<p style="margin:0 0 16px${style}">${escapeHtml(text).replaceAll("\n", "<br>")}</p>`;

/** The e-mail of a template in a language: one subject (a single line), the plain text and the HTML. */
export function renderMail(template: MailTemplate, locale: UserLocale): RenderedMail & { kind: MailKind } {
  const t = TRANSLATORS[locale];
  const parts = partsOf(template, locale);
  const greeting = parts.name ? t("greeting", { name: parts.name }) : t("greetingNoName");
  const closing = t("closing", { organisation: parts.organisation });
  const footer = t("footer", { organisation: parts.organisation });

  const text = [
    greeting,
    ...parts.paragraphs,
    ...(parts.action ? [`${parts.action.label}:\n${parts.action.url}`] : []),
    closing,
    `-- \n${footer}`,
  ].join("\n\n");

  const action = parts.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(parts.action.url)}" style="display:inline-block;padding:10px 18px;border-radius:6px;background:#0f766e;color:#ffffff;font-weight:600;text-decoration:none">${escapeHtml(parts.action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#475569">${escapeHtml(t("linkHint"))}<br><a href="${escapeHtml(parts.action.url)}" style="color:#0f766e;word-break:break-all">${escapeHtml(parts.action.url)}</a></p>`
    : "";
  const html = [
    `<!DOCTYPE html><html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(parts.subject)}</title></head>`,
    `<body style="margin:0;padding:24px;background:#f8fafc;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#0f172a">`,
    `<div style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;border:1px solid #e2e8f0;border-radius:8px">`,
    paragraph(greeting),
    ...parts.paragraphs.map((p) => paragraph(p)),
    action,
    paragraph(closing),
    `<hr style="border:none;border-top:1px solid #e2e8f0;margin:24px 0 12px">`,
    paragraph(footer, ";font-size:12px;color:#64748b"),
    `</div></body></html>`,
  ].join("\n");

  // One header line: a name someone typed must not break the subject header.
  return { kind: template.kind, subject: parts.subject.replace(/[\r\n]+/g, " ").trim(), text, html };
}
