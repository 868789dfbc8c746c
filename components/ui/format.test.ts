import { describe, expect, it } from "vitest";
import { dateInputToUnix, formatAmountInput, formatDate, formatDateTime, formatMoney, formatNumber, parseAmount, unixToDateInput } from "./format";

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
