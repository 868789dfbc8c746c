/**
 * How the portals show numbers, money and dates: one format per language (de → de-DE, en → en-GB),
 * and the only place that builds Intl formatters (docs/spec-gaps.md#issue-22-languages). Plain
 * functions taking the locale for server components (`getLocale()`), and `useFormat()` binding the
 * current locale for client components. Dates come as Unix seconds (the portals' wire dates) and
 * show in the runtime's time zone (the browser's, once hydrated), unless a time zone is given.
 */
import { useLocale } from "next-intl";
import { useMemo } from "react";

const TAGS: Record<string, string> = { de: "de-DE", en: "en-GB" };
/** The BCP 47 tag whose conventions a language's pages follow. */
export const formatTag = (locale: string): string => TAGS[locale] ?? TAGS.en!;

const NONE = "—";
type Maybe<T> = T | null | undefined;

/** Money from integer minor units (the spec's money: `{ amount, currency }` in cents). */
export function formatMoney(locale: string, cents: Maybe<number>, currency = "EUR"): string {
  if (cents === null || cents === undefined) return NONE;
  return new Intl.NumberFormat(formatTag(locale), { style: "currency", currency }).format(cents / 100);
}

/** An amount in minor units as a price input's text, two decimals, no symbol, no grouping ("4.50", "4,50"); read back by parseAmount. */
export function formatAmountInput(locale: string, cents: number): string {
  return new Intl.NumberFormat(formatTag(locale), { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false }).format(cents / 100);
}

/** "12.50", "12,5" or "12" (a price typed in either language's way) as minor units; null when it is not an amount. */
export function parseAmount(text: string): number | null {
  const match = /^\s*(\d{1,10})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
}

export function formatNumber(locale: string, value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(formatTag(locale), options).format(value);
}

/** A day ("25 Nov 2026", "25.11.2026"); `timeZone` for calendar dates stored at midnight UTC (a date of birth). */
export function formatDate(locale: string, unixSeconds: Maybe<number>, options: { timeZone?: string; none?: string } = {}): string {
  if (unixSeconds === null || unixSeconds === undefined) return options.none ?? NONE;
  return new Intl.DateTimeFormat(formatTag(locale), { dateStyle: "medium", timeZone: options.timeZone }).format(new Date(unixSeconds * 1000));
}

/** A moment to the minute ("25 Nov 2026, 14:05", "25.11.2026, 14:05"); `none` when there is none ("Never"). */
export function formatDateTime(locale: string, unixSeconds: Maybe<number>, none = NONE): string {
  if (unixSeconds === null || unixSeconds === undefined) return none;
  return new Intl.DateTimeFormat(formatTag(locale), { dateStyle: "medium", timeStyle: "short" }).format(new Date(unixSeconds * 1000));
}

/**
 * A native date input's value (YYYY-MM-DD, the browser's day) as Unix seconds at its first or last
 * second, for inclusive filters; undefined when it is not a day. The input itself shows the day in
 * the browser's own format (docs/spec-gaps.md#issue-22-languages).
 */
export function dateInputToUnix(value: string, end: "start" | "end"): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const [y, m, d] = value.split("-").map(Number) as [number, number, number];
  const date = end === "start" ? new Date(y, m - 1, d, 0, 0, 0) : new Date(y, m - 1, d, 23, 59, 59);
  return Math.floor(date.getTime() / 1000);
}

/** Unix seconds as a native date input's value (the browser's day). */
export function unixToDateInput(seconds: number): string {
  const date = new Date(seconds * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The formatters above bound to the page's language (client components). */
export function useFormat() {
  const locale = useLocale();
  return useMemo(
    () => ({
      locale,
      money: (cents: Maybe<number>, currency?: string) => formatMoney(locale, cents, currency),
      amountInput: (cents: number) => formatAmountInput(locale, cents),
      number: (value: number, options?: Intl.NumberFormatOptions) => formatNumber(locale, value, options),
      date: (unixSeconds: Maybe<number>, options?: { timeZone?: string; none?: string }) => formatDate(locale, unixSeconds, options),
      dateTime: (unixSeconds: Maybe<number>, none?: string) => formatDateTime(locale, unixSeconds, none),
    }),
    [locale],
  );
}
