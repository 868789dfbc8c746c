import { z } from "zod";
import { FieldErrorCollector, type FieldErrors } from "@/server/domain/errors";

// Messages an integrator can act on, in place of zod's generic ones (REST and tRPC alike).
z.config({
  customError: (issue) => {
    if (issue.code === "invalid_type") {
      if (issue.input === undefined) return "This field is required.";
      if (issue.input === null) return "This field may not be null.";
      if (issue.expected === "int") return "A valid integer is required.";
      if (issue.expected === "number") return "A valid number is required.";
      if (issue.expected === "boolean") return "Must be a valid boolean.";
      if (issue.expected === "string") return "Not a valid string.";
      if (issue.expected === "object") return "Expected an object.";
      if (issue.expected === "array") return "Expected a list of items.";
    }
    if (issue.code === "invalid_value") return `Must be one of: ${issue.values.map(String).join(", ")}.`;
    if (issue.code === "too_small" && issue.origin === "string") return "This field may not be blank.";
    if (issue.code === "too_small" && issue.origin === "array") return `Provide at least ${issue.minimum} item(s).`;
    if (issue.code === "too_small") return `Ensure this value is greater than or equal to ${issue.minimum}.`;
    if (issue.code === "too_big" && issue.origin === "string") return `Ensure this field has no more than ${issue.maximum} characters.`;
    if (issue.code === "too_big") return `Ensure this value is less than or equal to ${issue.maximum}.`;
    return undefined;
  },
});

/** Zod issues as `{field: [messages]}`, nested per object (array entries keyed by their index). */
export function toFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const collector = new FieldErrorCollector();
  for (const issue of issues) collector.add(issue.path.map((p) => (typeof p === "symbol" ? String(p) : p)), issue.message);
  return collector.fields;
}
