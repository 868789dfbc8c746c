/**
 * How every page names and colours a status: one human label and one tone per value of each kind
 * (docs/decisions/portals.md#say-what-it-means). The API and the select options' `value`s keep the
 * spec's values; only what a person reads comes from here: the label is the message
 * `status.<kind>.<key>` of the page's language (messages/*.json).
 */
import { useTranslations } from "next-intl";
import { APPOINTMENT_STATUS } from "@/server/domain/meetings/statuses";
import { ORDER_STATUS } from "@/server/domain/orders/statuses";
import { CANCELLED_AFTER_COMPLETION_REVIEW, PAYOUT_DESCRIPTIONS } from "@/server/domain/payouts/descriptions";
import { PHARMACY_ORDER_CHANGE, PHARMACY_ORDER_STATUS, pharmacyOrderSystemNote, wordStockMoves } from "@/server/domain/pharmacy-orders/statuses";
import { PRESCRIPTION_STATUS, prescriptionSystemNote } from "@/server/domain/prescriptions/statuses";
import type { DeliveryLogState } from "@/server/domain/webhooks/delivery-log-states";

export type Tone = "neutral" | "info" | "review" | "attention" | "working" | "ready" | "done" | "danger";

/** The badge classes of each tone (a ring keeps pale tones apart from the page). */
export const TONE_CLASSES: Record<Tone, string> = {
  neutral: "bg-slate-100 text-slate-700 ring-slate-200",
  info: "bg-sky-50 text-sky-800 ring-sky-200",
  review: "bg-violet-50 text-violet-800 ring-violet-200",
  attention: "bg-amber-50 text-amber-900 ring-amber-200",
  working: "bg-indigo-50 text-indigo-800 ring-indigo-200",
  ready: "bg-teal-50 text-teal-800 ring-teal-200",
  done: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  danger: "bg-red-50 text-red-800 ring-red-200",
};

type Look = { key: string; tone: Tone };

const PHARMACY_ORDER: Record<string, Look> = {
  [PHARMACY_ORDER_STATUS.waitingForPharmacy]: { key: "waitingForPharmacy", tone: "info" },
  [PHARMACY_ORDER_STATUS.pendingReview]: { key: "pendingReview", tone: "review" },
  [PHARMACY_ORDER_STATUS.onHold]: { key: "onHold", tone: "attention" },
  [PHARMACY_ORDER_STATUS.inProgress]: { key: "inProgress", tone: "working" },
  [PHARMACY_ORDER_STATUS.readyForPickup]: { key: "readyForPickup", tone: "ready" },
  [PHARMACY_ORDER_STATUS.completed]: { key: "completed", tone: "done" },
  [PHARMACY_ORDER_STATUS.cancelled]: { key: "cancelled", tone: "neutral" },
};

/** The order's own status: "waiting for pharmacy" means it is with its pharmacies, whatever they do (the list shows that beside it). */
const ORDER: Record<string, Look> = {
  [ORDER_STATUS.started]: { key: "started", tone: "info" },
  [ORDER_STATUS.paused]: { key: "paused", tone: "attention" },
  [ORDER_STATUS.waitingForDoctor]: { key: "waitingForDoctor", tone: "review" },
  [ORDER_STATUS.waitingForPharmacy]: { key: "waitingForPharmacy", tone: "info" },
  [ORDER_STATUS.completed]: { key: "completed", tone: "done" },
  [ORDER_STATUS.cancelled]: { key: "cancelled", tone: "neutral" },
  [ORDER_STATUS.prescriptionDeclined]: { key: "prescriptionDeclined", tone: "neutral" },
  [ORDER_STATUS.pharmacyNotFound]: { key: "pharmacyNotFound", tone: "attention" },
};

/** overall_status: one word for the whole order across its fulfilments. */
const OVERALL: Record<string, Look> = {
  pending: { key: "pending", tone: "info" },
  in_progress: { key: "inProgress", tone: "working" },
  on_hold: { key: "onHold", tone: "attention" },
  completed: { key: "completed", tone: "done" },
  cancelled: { key: "cancelled", tone: "neutral" },
};

const PRESCRIPTION: Record<string, Look> = {
  [PRESCRIPTION_STATUS.waitingForDoctor]: { key: "waitingForDoctor", tone: "attention" },
  [PRESCRIPTION_STATUS.onHold]: { key: "onHold", tone: "attention" },
  [PRESCRIPTION_STATUS.approved]: { key: "approved", tone: "info" },
  [PRESCRIPTION_STATUS.declined]: { key: "declined", tone: "danger" },
  [PRESCRIPTION_STATUS.signed]: { key: "signed", tone: "done" },
  [PRESCRIPTION_STATUS.nonQesSigned]: { key: "nonQesSigned", tone: "done" },
  [PRESCRIPTION_STATUS.externallySigned]: { key: "externallySigned", tone: "done" },
  [PRESCRIPTION_STATUS.cancelled]: { key: "cancelled", tone: "neutral" },
};

const PAYOUT: Record<string, Look> = {
  projected: { key: "projected", tone: "attention" },
  routed: { key: "routed", tone: "done" },
};

/** Payout component types (spec: "for example item_rest, item_markup, shipping"). */
const PAYOUT_COMPONENT: Record<string, Look> = {
  item_rest: { key: "itemRest", tone: "neutral" },
  item_markup: { key: "itemMarkup", tone: "neutral" },
  shipping: { key: "shipping", tone: "neutral" },
};

const DELIVERY: Record<DeliveryLogState, Look> = {
  pending: { key: "pending", tone: "neutral" },
  retrying: { key: "retrying", tone: "attention" },
  delivered: { key: "delivered", tone: "done" },
  failed: { key: "failed", tone: "danger" },
};

/** A webhook target's health (server/domain/webhooks/target-health.ts). */
const TARGET_HEALTH: Record<string, Look> = {
  failing: { key: "failing", tone: "danger" },
  recovering: { key: "recovering", tone: "attention" },
  healthy: { key: "healthy", tone: "done" },
  unknown: { key: "unknown", tone: "neutral" },
};

/** Order items and fulfillments (stored OPEN, CANCELLED …). */
const ITEM: Record<string, Look> = {
  OPEN: { key: "open", tone: "info" },
  CANCELLED: { key: "cancelled", tone: "neutral" },
};

/** A patient's questionnaire response (anamnesis). */
const QUESTIONNAIRE_RESPONSE: Record<string, Look> = {
  IN_PROGRESS: { key: "inProgress", tone: "attention" },
  COMPLETED: { key: "completed", tone: "done" },
};

const THREAD: Record<string, Look> = {
  open: { key: "open", tone: "attention" },
  resolved: { key: "resolved", tone: "done" },
};

/** An e-mail of the outbox (server/domain/mail/kinds.ts). */
const MAIL: Record<string, Look> = {
  pending: { key: "pending", tone: "info" },
  sent: { key: "sent", tone: "done" },
  failed: { key: "failed", tone: "danger" },
};

const USER: Record<string, Look> = {
  active: { key: "active", tone: "done" },
  invited: { key: "invited", tone: "attention" },
  deactivated: { key: "deactivated", tone: "neutral" },
};

/** What a row of an assortment CSV import does (server/domain/catalogue/import-assortment.ts). */
const IMPORT_OUTCOME: Record<string, Look> = {
  create: { key: "create", tone: "info" },
  update: { key: "update", tone: "working" },
  unchanged: { key: "unchanged", tone: "neutral" },
  error: { key: "error", tone: "danger" },
};

/** A wallet pass (server/domain/wallet-passes/revoke-pass.ts: a deleted pass is revoked). */
const WALLET_PASS: Record<string, Look> = {
  active: { key: "active", tone: "done" },
  revoked: { key: "revoked", tone: "danger" },
};

/** A patient's return code for an intent (server/domain/patients/submissions.ts). */
const INTENT: Record<string, Look> = {
  VALID: { key: "valid", tone: "done" },
  EXPIRED: { key: "expired", tone: "attention" },
  NOT_FOUND: { key: "notFound", tone: "neutral" },
};

/** A scheduled appointment (server/domain/meetings/statuses.ts). */
const APPOINTMENT: Record<string, Look> = {
  [APPOINTMENT_STATUS.held]: { key: "held", tone: "attention" },
  [APPOINTMENT_STATUS.confirmed]: { key: "confirmed", tone: "ready" },
  [APPOINTMENT_STATUS.cancelled]: { key: "cancelled", tone: "neutral" },
  [APPOINTMENT_STATUS.expired]: { key: "expired", tone: "neutral" },
  [APPOINTMENT_STATUS.completed]: { key: "completed", tone: "done" },
  [APPOINTMENT_STATUS.noShow]: { key: "noShow", tone: "danger" },
};

const KINDS = {
  pharmacyOrder: PHARMACY_ORDER,
  order: ORDER,
  overall: OVERALL,
  prescription: PRESCRIPTION,
  payout: PAYOUT,
  payoutComponent: PAYOUT_COMPONENT,
  delivery: DELIVERY as Record<string, Look>,
  targetHealth: TARGET_HEALTH,
  item: ITEM,
  questionnaireResponse: QUESTIONNAIRE_RESPONSE,
  thread: THREAD,
  user: USER,
  mail: MAIL,
  importOutcome: IMPORT_OUTCOME,
  walletPass: WALLET_PASS,
  intent: INTENT,
  appointment: APPOINTMENT,
};

export type StatusKind = keyof typeof KINDS;

/** Words of a value no table knows (a status added later): underscores and hyphens become spaces, the first letter capital. */
const readable = (value: string) => {
  const words = value.replace(/[_-]+/g, " ").trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export const statusTone = (kind: StatusKind, value: string): Tone => KINDS[kind][value]?.tone ?? "neutral";

/** A status value's label in the page's language. */
export type StatusLabel = (kind: StatusKind, value: string) => string;

/** Turns next-intl's translator of the `status` namespace into a StatusLabel (useTranslations or getTranslations). */
export function statusLabelOf(t: { (key: never): string; has(key: never): boolean }): StatusLabel {
  return (kind, value) => {
    const look = KINDS[kind][value];
    // The tables and messages/en.json are kept in step by the messages test; the key is built, so not typed.
    return look ? t(`${kind}.${look.key}` as never) : readable(value);
  };
}

/** The StatusLabel of the page's language, in a client component. */
export function useStatusLabel(): StatusLabel {
  return statusLabelOf(useTranslations("status"));
}

type HistoryEntry = { isStatusChange: boolean; fromStatus: string | null; toStatus: string };

/** The message key of each stored note label (PHARMACY_ORDER_CHANGE): the label is the kind, worded here. */
const HISTORY_NOTE_KEYS: Record<string, string> = Object.fromEntries(Object.entries(PHARMACY_ORDER_CHANGE).map(([key, label]) => [label, key]));

/**
 * A pharmacy order history entry in words: a status change by its labels, a known note label by its
 * message (status.historyNote.<key>), any other entry (a note written before the labels were fixed) as written.
 */
export function historyTextOf(t: { (key: never, values?: never): string }): (entry: HistoryEntry) => string {
  const label = statusLabelOf(t as never);
  const tv = t as unknown as (key: string, values?: Record<string, string>) => string;
  return (entry) => {
    if (!entry.isStatusChange) {
      const key = HISTORY_NOTE_KEYS[entry.toStatus];
      return key ? tv(`historyNote.${key}`) : entry.toStatus;
    }
    const to = label("pharmacyOrder", entry.toStatus);
    return entry.fromStatus ? tv("historyChange", { from: label("pharmacyOrder", entry.fromStatus), to }) : tv("historyCreated", { status: to });
  };
}

export function useHistoryText(): (entry: HistoryEntry) => string {
  return historyTextOf(useTranslations("status") as never);
}

/**
 * A history note or comment in words: one the system wrote (a prescription's or a pharmacy order's,
 * server/domain/*\/statuses.ts) by its message status.systemNote.<kind>.<key>; a person's own as written.
 */
export function systemNoteOf(t: { (key: never, values?: never): string }) {
  const tv = t as unknown as (key: string, values?: Record<string, string | number>) => string;
  return (kind: "prescription" | "pharmacyOrder", note: string): string => {
    const known = kind === "prescription" ? prescriptionSystemNote(note) : pharmacyOrderSystemNote(note);
    if (!known) return note;
    const values = known.key === "goodsReturned" ? { detail: wordStockMoves(String(known.values.detail), (stock) => tv("systemNote.pharmacyOrder.stockNow", { stock })) } : known.values;
    return tv(`systemNote.${kind}.${known.key}`, values);
  };
}

export function useSystemNote() {
  return systemNoteOf(useTranslations("status") as never);
}

const PAYOUT_DESCRIPTION_KEYS: Record<string, string> = { item_rest: "itemRest", item_markup: "itemMarkup", shipping: "shipping" };

/** A payout's routing description in words: its component's own description by its message, any other (or older) as written. */
export function payoutDescriptionOf(t: { (key: never): string }): (row: { componentType: string; description: string | null }) => string | null {
  const tv = t as unknown as (key: string) => string;
  return ({ componentType, description }) => {
    const key = PAYOUT_DESCRIPTION_KEYS[componentType];
    if (key && description === PAYOUT_DESCRIPTIONS[componentType as keyof typeof PAYOUT_DESCRIPTIONS]) return tv(`payoutDescription.${key}`);
    return description;
  };
}

/** A payout's review reason in words: the cancellation's own by its message, any other as written. */
export function payoutReviewReasonOf(t: { (key: never): string }): (reason: string | null) => string | null {
  const tv = t as unknown as (key: string) => string;
  return (reason) => (reason === CANCELLED_AFTER_COMPLETION_REVIEW ? tv("payoutReview.cancelledAfterCompletion") : reason);
}

export function usePayoutReviewReason() {
  return payoutReviewReasonOf(useTranslations("status") as never);
}

export function usePayoutDescription() {
  return payoutDescriptionOf(useTranslations("status") as never);
}

/** Every status message key the tables use, for the messages test. */
export const STATUS_MESSAGE_KEYS: string[] = Object.entries(KINDS).flatMap(([kind, table]) => Object.values(table).map((look) => `${kind}.${look.key}`));
