import { z } from "zod";

/** Body and query building blocks shared by the families' route tables. */
export const uid = () => z.string().trim().min(1).max(100);
export const text = (max = 255) => z.string().trim().min(1).max(max);
/** Money and prices: integer minor units, never decimals. */
export const amount = () => z.number().int().min(0).max(2_147_483_647);
export const count = () => z.number().int().min(0).max(2_147_483_647);
export const httpUrl = () =>
  z
    .string()
    .trim()
    .max(2048)
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), "Enter a valid http(s) URL.");
/** Search terms: at most 100 characters. */
export const searchTerm = () => z.string().max(100).optional();

const regions = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
const currencies = new Set(Intl.supportedValuesOf("currency"));

/** A 2-letter ISO 3166-1 country code ("DE"). */
export const countryCode = () =>
  z
    .string()
    .refine((code) => /^[A-Z]{2}$/.test(code) && code !== "ZZ" && regions.of(code) !== undefined, "Enter a 2-letter ISO country code, e.g. DE.");

/** A 3-letter ISO 4217 currency code ("EUR"). */
export const currencyCode = () =>
  z.string().refine((code) => /^[A-Z]{3}$/.test(code) && currencies.has(code), "Enter a 3-letter ISO currency code, e.g. EUR.");

/** Money: an integer amount in minor units with its currency. */
export const money = () => z.object({ amount: amount(), currency: currencyCode() });

/** Date filters in queries: Unix seconds, inclusive bounds ("to" covers its whole second). */
export const unixSecondsQuery = () =>
  z.string().trim().regex(/^\d+$/, "A valid integer is required.").transform(Number).pipe(z.number().int().max(253_402_300_799)).optional();
export const fromUnixSeconds = (s: number | undefined) => (s === undefined ? undefined : new Date(s * 1000));
export const toUnixSecondsInclusive = (s: number | undefined) => (s === undefined ? undefined : new Date(s * 1000 + 999));
