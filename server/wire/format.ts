/**
 * The wire's conventions, for every presenter of every door (REST, tRPC, webhooks): timestamps as
 * integer Unix seconds, lists as {data, totalRegistries, totalPages}.
 */

import { z } from "zod";
import type { Page } from "@/server/domain/paging";

export const unix = (date: Date): number => Math.floor(date.getTime() / 1000);
export const unixOrNull = (date: Date | null | undefined): number | null => (date ? unix(date) : null);
/** A calendar date (a date of birth, an expiry day) as YYYY-MM-DD. */
export const isoDateOrNull = (date: Date | null | undefined): string | null => (date ? date.toISOString().slice(0, 10) : null);

export function paginated<T>(items: T[], total: number, page: Page, key = "data") {
  return { [key]: items, totalRegistries: total, totalPages: Math.ceil(total / page.limit) };
}

/** JSON.stringify(paginated(…)) for items that are already one JSON array text (built by the database). */
export function paginatedJson(itemsJson: string, total: number, page: Page, key = "data"): string {
  return `{${JSON.stringify(key)}:${itemsJson},"totalRegistries":${total},"totalPages":${Math.ceil(total / page.limit)}}`;
}

// ── The same conventions as zod schemas, for the presenters' response schemas (the API explorers). ──

/** A timestamp on the wire: integer Unix seconds. */
export const unixField = () => z.number().int().meta({ description: "Unix seconds", examples: [1_763_800_000] });
/** A calendar date on the wire: YYYY-MM-DD. */
export const isoDateField = () => z.string().meta({ format: "date", examples: ["1980-04-01"] });
/** An amount of money: integer minor units (cents). */
export const minorUnitsField = () => z.number().int().describe("Integer minor units (cents)");
/** A string of known values that the schema documents without refusing others (stored values may predate a spelling). */
export const statusField = (values: readonly string[]) => z.string().describe(`One of: ${values.map((v) => `"${v}"`).join(", ")}`);

/** The paginated list envelope of paginated() (spec: {data, totalRegistries, totalPages}). */
export function paginatedSchema<T extends z.ZodType, K extends string = "data">(item: T, key: K = "data" as K) {
  return z.object({
    [key]: z.array(item),
    totalRegistries: z.number().int().min(0),
    totalPages: z.number().int().min(0),
  } as { [P in K]: z.ZodArray<T> } & { totalRegistries: z.ZodNumber; totalPages: z.ZodNumber });
}

/** A list that is not paginated: {data, total}. */
export const countedListSchema = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), total: z.number().int().min(0) });
