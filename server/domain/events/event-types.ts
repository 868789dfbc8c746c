/**
 * Event types of the spec's event table. Pharmacy events go to pharmacy and organisation
 * subscriptions. Vocabulary only (imports nothing): the portal's forms use it too.
 */
export const EVENT_TYPES = [
  "pharmacy_order_created",
  "pharmacy_order_updated",
  "pharmacy_sku_stock_updated",
  "appointment_reminder_due",
  "patient_doctor_meeting_updated",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
