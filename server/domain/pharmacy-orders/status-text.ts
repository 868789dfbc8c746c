import { errorText, type ErrorText } from "@/i18n/error-text";
import { PHARMACY_ORDER_STATUS } from "./statuses";

/** A pharmacy order's status in a message, labelled in the reader's language (the spec's value in English). */
export function pharmacyOrderStatusText(status: string): ErrorText[] {
  const state = Object.entries(PHARMACY_ORDER_STATUS).find(([, value]) => value === status)?.[0] ?? "other";
  return [errorText("pharmacyOrders.status", { value: status, state })];
}
