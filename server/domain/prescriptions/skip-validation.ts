/**
 * The skip-validation flag of order intake (spec "Management API: prescriptions"): an item whose
 * product needs a prescription but that has no prescription path becomes a prescription request
 * without anamnesis when the flag is set. It may sit on the line item, on its line item group (the
 * fulfillment, for bundles) or in the order-level additional details; the first level that
 * defines it decides, in that order, so an item can say false against an order-wide true.
 */

/** Flag names, strongest first: the service's own name wins over the generic one at the same level. */
export const SKIP_VALIDATION_FLAGS = [
  "_service_skip_validation",
  // The public documentation's spelling of the service's own flag.
  "_rxscale_skip_validation",
  "_skip_validation",
] as const;

export type SkipValidationLevels = {
  /** The raw line item object as the caller sent it. */
  item?: unknown;
  /** The raw line item group (fulfillment) object. */
  group?: unknown;
  /** The order-level additional details object. */
  order?: unknown;
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The flag's value at one level: the first flag name present with a value other than null; undefined when none is. */
function levelValue(level: unknown): unknown {
  if (!isRecord(level)) return undefined;
  for (const name of SKIP_VALIDATION_FLAGS) {
    const value = level[name];
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
}

/** true, 1, "1" and "true" (any case, surrounding blanks ignored) mean skip; any other value means do not. */
export function isSkipValue(value: unknown): boolean {
  if (value === true || value === 1) return true;
  if (typeof value === "string") {
    const text = value.trim().toLowerCase();
    return text === "true" || text === "1";
  }
  return false;
}

/** Whether validation is skipped for a line item: the first level defining a flag decides; none: false. */
export function resolveSkipValidation(levels: SkipValidationLevels): boolean {
  for (const level of [levels.item, levels.group, levels.order]) {
    const value = levelValue(level);
    if (value !== undefined) return isSkipValue(value);
  }
  return false;
}
