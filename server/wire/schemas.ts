import { z } from "zod";
import { COUNTRY_NAMES, isCountryCode } from "@/server/domain/countries";
import { ownMessage } from "./zod-messages";

/**
 * Input building blocks shared by the REST route tables and the tRPC procedures (and the browser's
 * forms). Their messages are worded by the error map of each side (server/wire/zod-messages.ts).
 */
// The documents say what the server enforces: a value of only whitespace is blank (trimmed, then too short).
const NOT_BLANK = { pattern: "\\S" };
export const uid = () => z.string().trim().min(1).max(100).meta(NOT_BLANK);
export const text = (max = 255) => z.string().trim().min(1).max(max).meta(NOT_BLANK);
/** A form's optional text field: empty or absent is no value (null). */
export const clearableText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((v) => v || null)
    .nullable()
    .default(null);
/** The range of an `Int` column (PostgreSQL int4): every integer input is bounded by it. */
export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;
/** An integer for an `Int` column, optionally narrowed (`int4({ min: 1 })`). */
export const int4 = (bounds: { min?: number; max?: number } = {}) =>
  z.number().int().min(bounds.min ?? INT4_MIN).max(bounds.max ?? INT4_MAX);
/** Money and prices: integer minor units, never decimals. */
export const amount = () => int4({ min: 0 });
export const count = () => int4({ min: 0 });
export const httpUrl = () =>
  z
    .string()
    .trim()
    .max(2048)
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), ownMessage("fields.httpUrl"))
    .meta({ format: "uri", pattern: "^\\s*[Hh][Tt][Tt][Pp][Ss]?://" });
/** An e-mail address: RFC 5321 allows at most 254 characters in a path. */
/** A webhook target as the documents show it; its rules are the domain's (server/domain/webhooks/target-rule.ts). */
export const webhookTarget = () =>
  z.string().trim().describe("An absolute https:// URL (at most 2048 characters, no credentials) whose host resolves to public addresses; plain http:// only where the server runs with WEBHOOK_ALLOW_PRIVATE_TARGETS.");
export const emailAddress = () => z.email().max(254);
/** A scanned wallet pass barcode value (verify: the Management API's body and the pharmacy portal's check). */
export const barcodeValue = () => text(200);
/** Search terms: at most 100 characters. */
export const searchTerm = () => z.string().max(100).optional().describe("Search term (at most 100 characters).");

const currencies = new Set(Intl.supportedValuesOf("currency"));
// The codes the checks accept, listed in the documents (a generated client offers them).
const COUNTRY_CODES = Object.keys(COUNTRY_NAMES).filter(isCountryCode);
const CURRENCY_CODES = [...currencies].filter((code) => /^[A-Z]{3}$/.test(code)).sort();

/** A 2-letter ISO 3166-1 country code ("DE"). */
export const countryCode = () =>
  z.string().refine(isCountryCode, ownMessage("fields.countryCode")).meta({ enum: COUNTRY_CODES, description: "ISO 3166-1 alpha-2, e.g. DE" });

/** A 3-letter ISO 4217 currency code ("EUR"). */
const currencyCode = () =>
  z
    .string()
    .refine((code) => /^[A-Z]{3}$/.test(code) && currencies.has(code), ownMessage("fields.currencyCode"))
    .meta({ enum: CURRENCY_CODES, description: "ISO 4217, e.g. EUR" });

/** Money: an integer amount in minor units with its currency. */
export const money = () => z.object({ amount: amount(), currency: currencyCode() });

/** 9999-12-31T23:59:59Z: later values are not dates. */
const MAX_UNIX_SECONDS = 253_402_300_799;

/** A timestamp in a JSON input (tRPC): Unix seconds. */
export const unixSeconds = () => z.number().int().min(0).max(MAX_UNIX_SECONDS);

/** Date filters in queries: Unix seconds, inclusive bounds ("to" covers its whole second). */
export const unixSecondsQuery = () =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, "A valid integer is required.")
    .transform(Number)
    .pipe(z.number().int().min(0).max(MAX_UNIX_SECONDS))
    .optional()
    .describe("Unix seconds (inclusive).");
export const fromUnixSeconds = (s: number | undefined) => (s === undefined ? undefined : new Date(s * 1000));
export const toUnixSecondsInclusive = (s: number | undefined) => (s === undefined ? undefined : new Date(s * 1000 + 999));

// ── Query parameters arrive as strings. ──

const integerText = z.string().trim().regex(/^[+-]?\d+$/, "A valid integer is required.").transform(Number);

const DEFAULT_LIMIT = 50;

// Pages past this one are empty anyway; capping keeps the row offset a safe integer.
const MAX_PAGE = 10_000_000;

/** page from 0; limit from 1, default 50, a larger limit capped to the maximum. */
export function paginationQuery(maxLimit: number) {
  return {
    page: integerText
      .transform((n) => Math.min(n, MAX_PAGE))
      // No maximum in the documents: a larger page is capped, not refused (z.int() would document 2^53 − 1).
      .pipe(z.number().min(0).meta({ type: "integer" }))
      .default(0)
      .describe("Page number, from 0."),
    limit: integerText
      .transform((n) => Math.min(n, maxLimit))
      .pipe(z.number().min(1).meta({ type: "integer" }))
      .default(DEFAULT_LIMIT)
      .describe(`Entries per page, from 1 (default ${DEFAULT_LIMIT}); a larger limit than ${maxLimit} is capped to ${maxLimit}.`),
  };
}

/** Free-form JSON objects (`additional_details`, `meta_data`): bounded, docs/decisions/errors-and-validation.md#bad-input. */
export const FREE_FORM_MAX_DEPTH = 10;
export const FREE_FORM_MAX_BYTES = 64 * 1024;

/** Levels of nesting of a JSON value (a scalar is 0), counted without recursion and stopping past `limit`. */
function jsonDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** A free-form JSON object stored as sent: at most FREE_FORM_MAX_DEPTH levels and FREE_FORM_MAX_BYTES of JSON. */
export const freeFormObject = () =>
  z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    if (jsonDepth(value, FREE_FORM_MAX_DEPTH) > FREE_FORM_MAX_DEPTH) {
      ctx.addIssue({ code: "custom", ...ownMessage("fields.nestedTooDeeply", { levels: String(FREE_FORM_MAX_DEPTH) }) });
    } else if (Buffer.byteLength(JSON.stringify(value)) > FREE_FORM_MAX_BYTES) {
      ctx.addIssue({ code: "custom", ...ownMessage("fields.jsonTooLarge", { kib: String(FREE_FORM_MAX_BYTES / 1024) }) });
    }
  });

/** Optional string body field that may also be sent as null. */
export const nullableText = (max = 255) => z.string().max(max).nullable().optional();
