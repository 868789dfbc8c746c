import type { BadRequestError } from "@/server/domain/errors";
import { pharmacyPermissionDeniedSchema, permissionDeniedSchema, standardErrorSchema } from "./error-schemas";
import type { Family } from "./types";

/** Management and Public API: permission errors carry the permission_denied code. */
const codedErrors = {
  permissionDenied: (permission: string) => ({
    code: "permission_denied",
    description: `The API key lacks the permission ${permission}.`,
  }),
  invalidBody: (reason: "json" | "content_type" | "form") => ({
    error: {
      json: "Invalid JSON in request body",
      content_type: "Content-Type must be application/json",
      form: "The body must be form data (multipart/form-data or application/x-www-form-urlencoded) of text fields",
    }[reason],
  }),
  refused: (error: BadRequestError) => ({ error: error.message }),
  errorSchemas: { permissionDenied: permissionDeniedSchema, refused: standardErrorSchema },
};

/** External Pharmacy API and payouts: {error: Permission denied} and the generic Bad request (spec, Errors item 2). */
const pharmacyErrors = {
  permissionDenied: () => ({ error: "Permission denied" }),
  invalidBody: () => ({ error: "Bad request" }),
  refused: () => ({ error: "Bad request" }),
  errorSchemas: { permissionDenied: pharmacyPermissionDeniedSchema, refused: standardErrorSchema },
};

export const MANAGEMENT: Family = {
  name: "management",
  title: "Management",
  basePath: "/v1/management",
  keyFamily: "MANAGEMENT",
  legacyAuthHeaders: false,
  pharmacyScoped: false,
  maxLimit: 200,
  ...codedErrors,
};

export const PUBLIC: Family = {
  name: "public",
  title: "Public",
  basePath: "/v2/public-api",
  keyFamily: "PUBLIC",
  legacyAuthHeaders: true,
  pharmacyScoped: false,
  maxLimit: 200,
  ...codedErrors,
};

export const EXTERNAL_PHARMACY: Family = {
  name: "external_pharmacy",
  title: "External Pharmacy",
  basePath: "/v1/external_pharmacy_api",
  keyFamily: "PHARMACY",
  legacyAuthHeaders: false,
  pharmacyScoped: true,
  maxLimit: 200,
  ...pharmacyErrors,
};

export const PHARMACY_PAYOUTS: Family = {
  ...EXTERNAL_PHARMACY,
  name: "pharmacy_payouts",
  title: "Pharmacy payouts",
  basePath: "/v1/external-pharmacy-api-v1",
};

/**
 * Patient data: Public API keys (with the permission patient_data) in X-API-Key only, or a patient
 * token in X-Service-Booking-Token (G30, G31; docs/decisions/patients.md#patient-data-and-patient-tokens).
 */
export const PATIENT_DATA: Family = {
  name: "patient_data",
  title: "Patient data",
  basePath: "/api/v0/patient",
  keyFamily: "PUBLIC",
  legacyAuthHeaders: false,
  pharmacyScoped: false,
  patientTokenHeader: "X-Service-Booking-Token",
  maxLimit: 200,
  ...codedErrors,
};
