/**
 * The wire's conventions, for every presenter of every door (REST, tRPC, webhooks): timestamps as
 * integer Unix seconds, lists as {data, totalRegistries, totalPages}.
 */

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
