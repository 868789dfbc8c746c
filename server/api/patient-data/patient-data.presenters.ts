import type { PatientProperty } from "@/server/domain/patients/properties";
import type { SubmissionReturnCode } from "@/server/domain/patients/submissions";
import { unixOrNull } from "@/server/wire/format";

/**
 * The intent's return_code: the spec gives signed_within_12_months; the other two name the
 * Management endpoint's EXPIRED and NOT_FOUND in the same words (docs/spec-gaps.md#issue-14-patient-data-and-patient-tokens).
 */
const RETURN_CODES: Record<SubmissionReturnCode, string> = {
  VALID: "signed_within_12_months",
  EXPIRED: "signed_more_than_12_months_ago",
  NOT_FOUND: "no_signed_submission",
};

export const presentIntent = (code: SubmissionReturnCode) => ({ return_code: RETURN_CODES[code] });

/** One profile field of the patient (G24, G25): the definition and the value, null while unset. */
export function presentPatientProperty(property: PatientProperty) {
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
