/**
 * How the portals show numbers, money and dates: one format per language (de → de-DE, en → en-GB),
 * and the only place that builds Intl formatters (docs/decisions/portals.md#languages). Plain
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
 * the browser's own format (docs/decisions/portals.md#languages).
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

/**
 * The time zone of the portals' calendars (the appointments) when the browser's own is not known: the
 * server's render, before hydration. The platform's practices are German.
 */
export const DEFAULT_TIME_ZONE = "Europe/Berlin";

const wallClockFormatters = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `zone` at a moment (ms), to the second. */
function wallClockAt(ms: number, zone: string) {
  let formatter = wallClockFormatters.get(zone);
  if (!formatter) {
    const parts = { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" } as const;
    formatter = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", ...parts });
    wallClockFormatters.set(zone, formatter);
  }
  const part = Object.fromEntries(formatter.formatToParts(new Date(ms)).map((p) => [p.type, Number(p.value)]));
  return { year: part.year!, month: part.month!, day: part.day!, hour: part.hour!, minute: part.minute!, second: part.second! };
}

/** How far `zone`'s clock is ahead of UTC at a moment (ms). */
function zoneOffsetMs(ms: number, zone: string): number {
  const w = wallClockAt(ms, zone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

const pad2 = (n: number) => String(n).padStart(2, "0");

/**
 * A wall-clock time in `zone` as Unix seconds: a datetime-local input's value ("2026-03-03T10:00",
 * seconds optional) or a day ("2026-03-03": its midnight); undefined when it is neither. A time the
 * clocks skip (spring forward) reads as the moment after the change.
 */
export function zonedToUnix(value: string, zone: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1).map((v) => (v === undefined ? undefined : Number(v)));
  if (month! < 1 || month! > 12 || day! < 1 || day! > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  const asUtc = Date.UTC(year!, month! - 1, day!, hour, minute, second);
  // The offset at the guess, then at the result: the second look settles a day on which the clocks change.
  const guess = asUtc - zoneOffsetMs(asUtc, zone);
  return Math.floor((asUtc - zoneOffsetMs(guess, zone)) / 1000);
}

/** Unix seconds as a datetime-local value in `zone` ("2026-03-03T10:00", with ":SS" when not on the minute). */
export function unixToZoned(seconds: number, zone: string): string {
  const w = wallClockAt(seconds * 1000, zone);
  const time = `${pad2(w.hour)}:${pad2(w.minute)}${w.second ? `:${pad2(w.second)}` : ""}`;
  return `${w.year}-${pad2(w.month)}-${pad2(w.day)}T${time}`;
}

/** The calendar day ("YYYY-MM-DD") of a moment in `zone`. */
export const dayInZone = (seconds: number, zone: string): string => unixToZoned(seconds, zone).slice(0, 10);

/** A calendar day `days` later (earlier when negative); undefined when `day` is not a day. */
export function addDays(day: string, days: number): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return undefined;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().slice(0, 10);
}

/** The Monday of a day's week (weeks start on Monday, as in Germany and ISO 8601). */
export function mondayOf(day: string): string | undefined {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return Number.isNaN(weekday) ? undefined : addDays(day, -((weekday + 6) % 7));
}

/** A calendar day ("YYYY-MM-DD") as words: "Tuesday, 3 March 2026" (long) or "Tue, 3 Mar" (short). */
export function formatDay(locale: string, day: string, style: "long" | "short" = "long"): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  const options: Intl.DateTimeFormatOptions =
    style === "long" ? { weekday: "long", day: "numeric", month: "long", year: "numeric" } : { weekday: "short", day: "numeric", month: "short" };
  return new Intl.DateTimeFormat(formatTag(locale), { ...options, timeZone: "UTC" }).format(date);
}

/** A calendar date as the wire gives it ("YYYY-MM-DD": a date of birth) in the language's format ("01.01.1980", "1 Jan 1980"); `none` when there is none. */
export function formatCalendarDate(locale: string, day: Maybe<string>, none = NONE): string {
  if (!day) return none;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) ? day : formatDate(locale, ms / 1000, { timeZone: "UTC" });
}

/** A moment's time of day in `zone` ("14:05"). */
export function formatTime(locale: string, unixSeconds: number, zone: string): string {
  return new Intl.DateTimeFormat(formatTag(locale), { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone }).format(new Date(unixSeconds * 1000));
}

/** A moment to the minute in `zone` ("3 Mar 2026, 14:05"). */
export function formatDateTimeIn(locale: string, unixSeconds: number, zone: string): string {
  return new Intl.DateTimeFormat(formatTag(locale), { dateStyle: "medium", timeStyle: "short", timeZone: zone }).format(new Date(unixSeconds * 1000));
}

/** The runtime's time zone (the browser's: the user's), DEFAULT_TIME_ZONE when it names none. */
export const runtimeTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_TIME_ZONE;

const regionNames = new Map<string, Intl.DisplayNames>();

/** A country's name in the language from its ISO 3166-1 code ("DE" → "Deutschland", "Germany"); an unknown code as it is. */
export function formatCountry(locale: string, code: Maybe<string>, none = NONE): string {
  if (!code) return none;
  const tag = formatTag(locale);
  let names = regionNames.get(tag);
  if (!names) regionNames.set(tag, (names = new Intl.DisplayNames([tag], { type: "region", fallback: "code" })));
  try {
    return names.of(code.trim().toUpperCase()) ?? code;
  } catch {
    // Not a region code at all (a name typed in an older row): as written.
    return code;
  }
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
      dateTimeIn: (unixSeconds: number, zone: string) => formatDateTimeIn(locale, unixSeconds, zone),
      time: (unixSeconds: number, zone: string) => formatTime(locale, unixSeconds, zone),
      day: (day: string, style?: "long" | "short") => formatDay(locale, day, style),
      calendarDate: (day: Maybe<string>, none?: string) => formatCalendarDate(locale, day, none),
      country: (code: Maybe<string>, none?: string) => formatCountry(locale, code, none),
    }),
    [locale],
  );
}
