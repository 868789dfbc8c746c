/**
 * How every page names and colours a status: one human label and one tone per value of each kind
 * (docs/spec-gaps.md#issue-22-say-what-it-means). The API and the select options' `value`s keep the
 * spec's values; only what a person reads comes from here. The labels are English and kept in this
 * one place so that they can become message keys when the portals get their languages.
 */
import { ORDER_STATUS } from "@/server/domain/orders/statuses";
import { PHARMACY_ORDER_STATUS } from "@/server/domain/pharmacy-orders/statuses";
import { PRESCRIPTION_STATUS } from "@/server/domain/prescriptions/statuses";
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

type Look = { label: string; tone: Tone };

const PHARMACY_ORDER: Record<string, Look> = {
  [PHARMACY_ORDER_STATUS.waitingForPharmacy]: { label: "Waiting for pharmacy", tone: "info" },
  [PHARMACY_ORDER_STATUS.pendingReview]: { label: "Pending review", tone: "review" },
  [PHARMACY_ORDER_STATUS.onHold]: { label: "On hold", tone: "attention" },
  [PHARMACY_ORDER_STATUS.inProgress]: { label: "In progress", tone: "working" },
  [PHARMACY_ORDER_STATUS.readyForPickup]: { label: "Ready for pickup", tone: "ready" },
  [PHARMACY_ORDER_STATUS.completed]: { label: "Completed", tone: "done" },
  [PHARMACY_ORDER_STATUS.cancelled]: { label: "Cancelled", tone: "neutral" },
};

/** The order's own status: "waiting for pharmacy" means it is with its pharmacies, whatever they do (the list shows that beside it). */
const ORDER: Record<string, Look> = {
  [ORDER_STATUS.started]: { label: "Started", tone: "info" },
  [ORDER_STATUS.paused]: { label: "Paused", tone: "attention" },
  [ORDER_STATUS.waitingForDoctor]: { label: "Waiting for doctor", tone: "review" },
  [ORDER_STATUS.waitingForPharmacy]: { label: "At the pharmacy", tone: "info" },
  [ORDER_STATUS.completed]: { label: "Completed", tone: "done" },
  [ORDER_STATUS.cancelled]: { label: "Cancelled", tone: "neutral" },
  [ORDER_STATUS.prescriptionDeclined]: { label: "Prescription declined", tone: "neutral" },
  [ORDER_STATUS.pharmacyNotFound]: { label: "No pharmacy found", tone: "attention" },
};

/** overall_status: one word for the whole order across its fulfilments. */
const OVERALL: Record<string, Look> = {
  pending: { label: "Pending", tone: "info" },
  in_progress: { label: "In progress", tone: "working" },
  on_hold: { label: "On hold", tone: "attention" },
  completed: { label: "Completed", tone: "done" },
  cancelled: { label: "Cancelled", tone: "neutral" },
};

const PRESCRIPTION: Record<string, Look> = {
  [PRESCRIPTION_STATUS.waitingForDoctor]: { label: "Waiting for doctor", tone: "attention" },
  [PRESCRIPTION_STATUS.onHold]: { label: "On hold", tone: "attention" },
  [PRESCRIPTION_STATUS.approved]: { label: "Approved, not signed", tone: "info" },
  [PRESCRIPTION_STATUS.declined]: { label: "Declined", tone: "danger" },
  [PRESCRIPTION_STATUS.signed]: { label: "Signed (QES)", tone: "done" },
  [PRESCRIPTION_STATUS.nonQesSigned]: { label: "Signed (without QES)", tone: "done" },
  [PRESCRIPTION_STATUS.externallySigned]: { label: "Signed externally", tone: "done" },
  [PRESCRIPTION_STATUS.cancelled]: { label: "Cancelled", tone: "neutral" },
};

const PAYOUT: Record<string, Look> = {
  projected: { label: "Projected", tone: "attention" },
  routed: { label: "Routed", tone: "done" },
};

/** Payout component types (spec: "for example item_rest, item_markup, shipping"). */
const PAYOUT_COMPONENT: Record<string, Look> = {
  item_rest: { label: "Item price", tone: "neutral" },
  item_markup: { label: "Item markup", tone: "neutral" },
  shipping: { label: "Shipping", tone: "neutral" },
};

const DELIVERY: Record<DeliveryLogState, Look> = {
  pending: { label: "Pending", tone: "neutral" },
  retrying: { label: "Retrying", tone: "attention" },
  delivered: { label: "Delivered", tone: "done" },
  failed: { label: "Failed", tone: "danger" },
};

/** A webhook target's health (server/domain/webhooks/target-health.ts). */
const TARGET_HEALTH: Record<string, Look> = {
  failing: { label: "Failing", tone: "danger" },
  recovering: { label: "Recent failures", tone: "attention" },
  healthy: { label: "Healthy", tone: "done" },
  unknown: { label: "No deliveries yet", tone: "neutral" },
};

/** Order items and fulfillments (stored OPEN, CANCELLED …). */
const ITEM: Record<string, Look> = {
  OPEN: { label: "Open", tone: "info" },
  CANCELLED: { label: "Cancelled", tone: "neutral" },
};

/** A patient's questionnaire response (anamnesis). */
const QUESTIONNAIRE_RESPONSE: Record<string, Look> = {
  IN_PROGRESS: { label: "In progress", tone: "attention" },
  COMPLETED: { label: "Completed", tone: "done" },
};

const THREAD: Record<string, Look> = {
  open: { label: "Open", tone: "attention" },
  resolved: { label: "Resolved", tone: "done" },
};

const USER: Record<string, Look> = {
  active: { label: "Active", tone: "done" },
  invited: { label: "Invited", tone: "attention" },
  deactivated: { label: "Deactivated", tone: "neutral" },
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
};

export type StatusKind = keyof typeof KINDS;

/** Words of a value no table knows (a status added later): underscores and hyphens become spaces, the first letter capital. */
const readable = (value: string) => {
  const words = value.replace(/[_-]+/g, " ").trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The label and tone of `value` of `kind`. */
export function statusLook(kind: StatusKind, value: string): Look {
  return KINDS[kind][value] ?? { label: readable(value), tone: "neutral" };
}

export const statusLabel = (kind: StatusKind, value: string): string => statusLook(kind, value).label;

/** A pharmacy order history entry in words: a status change by its labels, any other entry (a note) as written. */
export function historyText(entry: { isStatusChange: boolean; fromStatus: string | null; toStatus: string }): string {
  if (!entry.isStatusChange) return entry.toStatus;
  const to = statusLabel("pharmacyOrder", entry.toStatus);
  return entry.fromStatus ? `${statusLabel("pharmacyOrder", entry.fromStatus)} → ${to}` : `Created: ${to}`;
}
