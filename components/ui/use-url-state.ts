"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useRef } from "react";

/** Changes to the query string: a value sets its key, undefined or "" removes it. */
export type UrlUpdates = Record<string, string | undefined>;

/**
 * A list's state in the page's query string (filters, tab, search, page), so a deep link, a reload
 * and the back button keep it. `set` replaces the current history entry (no entry per keystroke)
 * and keeps the scroll position; several keys change in one call (a filter and its page together).
 * Updates that depend on another key take a function of the latest query (pending changes included).
 * Needs a Suspense boundary above it (useSearchParams): the portal shell has one around the page.
 */
export function useUrlQuery() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  // The router applies a replace later (a transition): two changes before the next render (a tab,
  // then a date) must build on each other, not both on the rendered query, or the first is lost.
  // A setter kept by an older render (a debounced search) reads the query as rendered last, too.
  const pending = useRef<{ base: string; query: string } | null>(null);
  const lastRendered = useRef("");
  lastRendered.current = params.toString();
  const set = useCallback(
    (updates: UrlUpdates | ((latest: URLSearchParams) => UrlUpdates)) => {
      const rendered = lastRendered.current;
      const next = new URLSearchParams(pending.current?.base === rendered ? pending.current.query : rendered);
      for (const [key, value] of Object.entries(typeof updates === "function" ? updates(new URLSearchParams(next)) : updates)) {
        if (value === undefined || value === "") next.delete(key);
        else next.set(key, value);
      }
      const query = next.toString();
      pending.current = { base: rendered, query };
      router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
    },
    [router, pathname],
  );
  return { get: (key: string) => params.get(key) ?? undefined, set };
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
