import { z } from "zod";
import type { FieldErrors } from "@/server/domain/errors";

// Messages an integrator can act on, in place of zod's generic ones.
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

/** Field key for errors that concern the body as a whole. */
export const NON_FIELD_ERRORS = "non_field_errors";

/** Zod issues as `{field: [messages]}`, nested per object (array entries keyed by their index). */
export function toFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const path = issue.path.length > 0 ? issue.path.map(String) : [NON_FIELD_ERRORS];
    let node: FieldErrors = out;
    for (const key of path.slice(0, -1)) {
      const next = node[key];
      if (!next || Array.isArray(next)) node[key] = {};
      node = node[key] as FieldErrors;
    }
    const leaf = path[path.length - 1];
    const existing = node[leaf];
    if (Array.isArray(existing)) {
      if (!existing.includes(issue.message)) existing.push(issue.message);
    } else if (existing) {
      const nested = existing[NON_FIELD_ERRORS];
      existing[NON_FIELD_ERRORS] = Array.isArray(nested) ? [...nested, issue.message] : [issue.message];
    } else {
      node[leaf] = [issue.message];
    }
  }
  return out;
}

// ── Query parameter schemas: query values arrive as strings. ──

const integerText = z.string().trim().regex(/^[+-]?\d+$/, "A valid integer is required.").transform(Number);

export const queryInt = () => integerText.pipe(z.number().int());

export const DEFAULT_LIMIT = 50;

// Pages past this one are empty anyway; capping keeps the row offset a safe integer.
const MAX_PAGE = 10_000_000;

/** page from 0; limit from 1, default 50, a larger limit capped to the maximum. */
export function paginationQuery(maxLimit: number) {
  return {
    page: integerText
      .transform((n) => Math.min(n, MAX_PAGE))
      .pipe(z.number().int().min(0))
      .default(0),
    limit: integerText
      .transform((n) => Math.min(n, maxLimit))
      .pipe(z.number().int().min(1))
      .default(DEFAULT_LIMIT),
  };
}

export type { Page } from "@/server/domain/paging";
import type { Page } from "@/server/domain/paging";

export function paginated<T>(items: T[], total: number, page: Page, key = "data") {
  return { [key]: items, totalRegistries: total, totalPages: Math.ceil(total / page.limit) };
}

/** Optional string body field that may also be sent as null. */
export const nullableText = (max = 255) => z.string().max(max).nullable().optional();
