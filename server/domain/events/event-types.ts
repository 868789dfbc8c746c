/**
 * Event types: the spec's event table, then the order and prescription events of the real product
 * (docs/decisions/webhooks.md#order-and-prescription-events). Pharmacy events go to pharmacy and organisation
 * subscriptions, every other only to organisation ones. Vocabulary only (imports nothing): the
 * portal's forms use it too.
 */
export const EVENT_TYPES = [
  "pharmacy_order_created",
  "pharmacy_order_updated",
  "pharmacy_sku_stock_updated",
  "appointment_reminder_due",
  "patient_doctor_meeting_updated",
  "order_created",
  "order_updated",
  "prescription_created",
  "prescription_updated",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
