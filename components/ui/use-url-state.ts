"use client";

import { useSearchParams } from "next/navigation";
import { useCallback } from "react";

/** Changes to the query string: a value sets its key, undefined or "" removes it. */
export type UrlUpdates = Record<string, string | undefined>;

/**
 * A list's state in the page's query string (filters, tab, search, page), so a deep link, a reload
 * and the back button keep it. `set` replaces the current history entry (no entry per keystroke) and
 * keeps the scroll position; several keys change in one call (a filter and its page together);
 * updates that depend on another key take a function of the current query.
 *
 * It writes with the browser's history.replaceState, which Next.js's router follows
 * (useSearchParams renders the new query) without a navigation: the address bar holds every change
 * at once, so quick changes build on each other however late the router renders, and the page is
 * not mounted again (a router.replace re-keys the page's segment and reset what was being typed).
 * Needs a Suspense boundary above it (useSearchParams): the portal shell has one around the page.
 */
export function useUrlQuery() {
  const params = useSearchParams();
  const set = useCallback((updates: UrlUpdates | ((latest: URLSearchParams) => UrlUpdates)) => {
    const query = nextQuery(window.location.search, updates);
    const url = `${window.location.pathname}${query ? `?${query}` : ""}${window.location.hash}`;
    // null, as Next.js's docs show: a state of the router's own (__NA) is one it does not follow.
    window.history.replaceState(null, "", url);
  }, []);
  return { get: (key: string) => params.get(key) ?? undefined, set };
}

/** The query string `updates` make of `current` (the address bar's, with every earlier change). */
export function nextQuery(current: string, updates: UrlUpdates | ((latest: URLSearchParams) => UrlUpdates)): string {
  const next = new URLSearchParams(current);
  for (const [key, value] of Object.entries(typeof updates === "function" ? updates(new URLSearchParams(next)) : updates)) {
    if (value === undefined || value === "") next.delete(key);
    else next.set(key, value);
  }
  return next.toString();
}

/** One query-string value and its setter (a tab, a filter): `useUrlState("status")`. */
export function useUrlState(key: string): [string | undefined, (value: string | undefined) => void] {
  const query = useUrlQuery();
  return [query.get(key), (value) => query.set({ [key]: value })];
}

/** The page of a list in the query string: `page=2` is the second page (index 1); the first is no key. */
export const pageOfQuery = (value: string | undefined): number => {
  const page = Number(value);
  return Number.isInteger(page) && page > 1 ? page - 1 : 0;
};
export const queryOfPage = (page: number): string | undefined => (page > 0 ? String(page + 1) : undefined);
