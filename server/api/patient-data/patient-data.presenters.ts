import type { PatientProperty } from "@/server/domain/patients/properties";
import type { SubmissionReturnCode } from "@/server/domain/patients/submissions";
import { z } from "zod";
import { unixField, unixOrNull } from "@/server/wire/format";

/**
 * The intent's return_code: the spec gives signed_within_12_months; the other two name the
 * Management endpoint's EXPIRED and NOT_FOUND in the same words (docs/decisions/patients.md#patient-data-and-patient-tokens).
 */
const RETURN_CODES = {
  VALID: "signed_within_12_months",
  EXPIRED: "signed_more_than_12_months_ago",
  NOT_FOUND: "no_signed_submission",
} as const satisfies Record<SubmissionReturnCode, string>;

export const intentSchema = z.object({ return_code: z.enum(Object.values(RETURN_CODES)) });

export const patientPropertySchema = z.object({
  field: z.string(),
  display_name: z.string(),
  type: z.string(),
  source: z.string(),
  value: z.string().nullable(),
  value_source: z.string().nullable(),
  updated_at: unixField().nullable(),
});

export const presentIntent = (code: SubmissionReturnCode): z.infer<typeof intentSchema> => ({ return_code: RETURN_CODES[code] });

/** One profile field of the patient (G24, G25): the definition and the value, null while unset. */
export function presentPatientProperty(property: PatientProperty): z.infer<typeof patientPropertySchema> {
  return {
    field: property.key,
    display_name: property.displayName,
    type: property.type,
    source: property.source,
    value: property.value,
    value_source: property.valueSource,
    updated_at: unixOrNull(property.updatedAt),
  };
}
