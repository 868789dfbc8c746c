import type { ApiKeyFamily } from "@/server/db/generated/enums";

/**
 * Permission names per key family: the spec's Authentication section, plus patient:write, which the
 * public documentation names for POST /v1/management/patients (gap G19), and patient_data for the
 * patient-data endpoints (G31, docs/decisions/patients.md#patient-data-and-patient-tokens).
 */
export const PERMISSIONS = {
  MANAGEMENT: [
    "order:read",
    "order:write",
    "prescription:read",
    "prescription:external_sign",
    "product:read",
    "product:write",
    "doctor:read",
    "doctor_statistics:read",
    "patient:read",
    "patient:write",
    "waiting_room:read",
    "waiting_room:write",
    "wallet_pass_template:read",
    "wallet_pass:read",
    "wallet_pass:write",
    "wallet_pass:verify",
    "wallet_pass_push_notification:write",
    "telemedicine_provider:read",
    "telemedicine_provider:write",
    "questionnaire:write",
  ],
  // patient_data: the patient-data endpoints (/api/v0/patient), G31.
  PUBLIC: ["product:read", "order:read", "create_prescription_checkout", "create_treatment_checkout", "patient_data"],
  PHARMACY: ["orders_read", "orders_write", "stock_read", "stock_write", "webhooks_read", "webhooks_write"],
} as const satisfies Record<ApiKeyFamily, readonly string[]>;

export type Permission = (typeof PERMISSIONS)[keyof typeof PERMISSIONS][number];

export function isPermissionOf(family: ApiKeyFamily, permission: string): boolean {
  return (PERMISSIONS[family] as readonly string[]).includes(permission);
}
