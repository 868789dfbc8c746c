import { errorText, type ErrorText } from "@/i18n/error-text";
import { normalisePrescriptionStatus, PRESCRIPTION_STATUS } from "./statuses";

/** A prescription's status in a message: its one spelling, labelled in the reader's language. */
export function prescriptionStatusText(status: string): ErrorText[] {
  const value = normalisePrescriptionStatus(status) ?? status;
  const state = Object.entries(PRESCRIPTION_STATUS).find(([, s]) => s === value)?.[0] ?? "other";
  return [errorText("prescriptions.status", { value, state })];
}
