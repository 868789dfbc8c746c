import { describe, expect, it } from "vitest";
import {
  addDays,
  dateInputToUnix,
  dayInZone,
  formatAmountInput,
  formatDate,
  formatDateTime,
  formatCalendarDate,
  formatDay,
  formatMoney,
  formatNumber,
  formatTime,
  mondayOf,
  parseAmount,
  unixToDateInput,
  unixToZoned,
  zonedToUnix,
} from "./format";

// Intl puts a no-break space between amount and symbol (de-DE) and in some date parts.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");
/** 2026-11-25 13:05:00 UTC */
const MOMENT = Date.UTC(2026, 10, 25, 13, 5, 0) / 1000;

describe("one format per language", () => {
  it("money from integer cents: de-DE and en-GB", () => {
    expect(plain(formatMoney("de", 2890, "EUR"))).toBe("28,90 €");
    expect(formatMoney("en", 2890, "EUR")).toBe("€28.90");
    expect(plain(formatMoney("de", 123456))).toBe("1.234,56 €");
    expect(formatMoney("en", 123456)).toBe("€1,234.56");
    expect(formatMoney("en", 0)).toBe("€0.00");
    expect(formatMoney("de", null)).toBe("—");
  });

  it("an unknown language formats as English", () => {
    expect(formatMoney("fr", 2890)).toBe("€28.90");
  });

  it("price inputs: two decimals, no symbol, no grouping; read back either way", () => {
    expect(formatAmountInput("en", 379)).toBe("3.79");
    expect(formatAmountInput("de", 379)).toBe("3,79");
    expect(formatAmountInput("de", 123456)).toBe("1234,56");
    expect(parseAmount("3,79")).toBe(379);
    expect(parseAmount("3.79")).toBe(379);
    expect(parseAmount(" 12,5 ")).toBe(1250);
    expect(parseAmount("1.234,56")).toBeNull();
  });

  it("numbers", () => {
    expect(plain(formatNumber("de", 1234.5))).toBe("1.234,5");
    expect(formatNumber("en", 1234.5)).toBe("1,234.5");
  });

  it("dates and date-times", () => {
    expect(formatDate("de", MOMENT, { timeZone: "UTC" })).toBe("25.11.2026");
    expect(formatDate("en", MOMENT, { timeZone: "UTC" })).toBe("25 Nov 2026");
    expect(formatDate("en", null, { none: "Never" })).toBe("Never");
    // The runtime's time zone: the day and the minute's shape, not the hour.
    expect(plain(formatDateTime("de", MOMENT))).toMatch(/^\d\d\.11\.2026, \d\d:\d\d$/);
    expect(plain(formatDateTime("en", MOMENT))).toMatch(/^\d\d Nov 2026, \d\d:\d\d$/);
    expect(formatDateTime("en", undefined, "Never")).toBe("Never");
  });

  it("date inputs: a day as its first and last second, and back", () => {
    const start = dateInputToUnix("2026-11-25", "start")!;
    expect(dateInputToUnix("2026-11-25", "end")! - start).toBe(86_399);
    expect(unixToDateInput(start)).toBe("2026-11-25");
    expect(dateInputToUnix("25.11.2026", "start")).toBeUndefined();
  });
});

describe("calendars in a time zone (the appointments)", () => {
  it("a wall-clock time in Berlin is the same moment in UTC, in winter and in summer, and back", () => {
    expect(zonedToUnix("2026-11-25T14:05", "Europe/Berlin")).toBe(MOMENT);
    expect(unixToZoned(MOMENT, "Europe/Berlin")).toBe("2026-11-25T14:05");
    const summer = Date.UTC(2026, 6, 1, 8, 0, 20) / 1000;
    expect(zonedToUnix("2026-07-01T10:00:20", "Europe/Berlin")).toBe(summer);
    expect(unixToZoned(summer, "Europe/Berlin")).toBe("2026-07-01T10:00:20");
    expect(zonedToUnix("2026-07-01T10:00", "UTC")).toBe(Date.UTC(2026, 6, 1, 10) / 1000);
    expect(zonedToUnix("2026-11-25", "Europe/Berlin")).toBe(Date.UTC(2026, 10, 24, 23) / 1000);
    expect(zonedToUnix("25.11.2026 14:05", "Europe/Berlin")).toBeUndefined();
    expect(zonedToUnix("2026-13-01T10:00", "Europe/Berlin")).toBeUndefined();
  });

  it("days on which the clocks change are 23 and 25 hours long; a skipped time reads as the moment after the change", () => {
    const length = (day: string) => (zonedToUnix(addDays(day, 1)!, "Europe/Berlin")! - zonedToUnix(day, "Europe/Berlin")!) / 3600;
    expect(length("2026-03-29")).toBe(23);
    expect(length("2026-10-25")).toBe(25);
    expect(zonedToUnix("2026-03-29T02:30", "Europe/Berlin")).toBe(Date.UTC(2026, 2, 29, 1, 30) / 1000);
  });

  it("days: the day of a moment in a zone, day arithmetic across months, Monday-weeks, the day as words", () => {
    expect(dayInZone(Date.UTC(2026, 10, 24, 23, 30) / 1000, "Europe/Berlin")).toBe("2026-11-25");
    expect(dayInZone(Date.UTC(2026, 10, 24, 23, 30) / 1000, "UTC")).toBe("2026-11-24");
    expect(addDays("2026-02-28", 1)).toBe("2026-03-01");
    expect(addDays("2026-01-01", -1)).toBe("2025-12-31");
    expect(mondayOf("2026-11-25")).toBe("2026-11-23");
    expect(mondayOf("2026-11-29")).toBe("2026-11-23");
    expect(mondayOf("2026-11-23")).toBe("2026-11-23");
    expect(formatCalendarDate("de", "1980-01-01")).toBe("01.01.1980");
    expect(formatCalendarDate("en", "1980-01-01")).toBe("1 Jan 1980");
    expect(formatCalendarDate("de", null)).toBe("—");
    expect(formatDay("en", "2026-11-25")).toBe("Wednesday, 25 November 2026");
    expect(formatDay("de", "2026-11-25")).toBe("Mittwoch, 25. November 2026");
    expect(formatDay("de", "2026-11-25", "short")).toBe("Mi., 25. Nov.");
    expect(formatTime("de", MOMENT, "Europe/Berlin")).toBe("14:05");
    expect(formatTime("en", MOMENT, "UTC")).toBe("13:05");
  });
});
