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
  const chain = useRef<ReplaceChain | null>(null);
  const lastRendered = useRef("");
  lastRendered.current = params.toString();
  const set = useCallback(
    (updates: UrlUpdates | ((latest: URLSearchParams) => UrlUpdates)) => {
      const next = nextQuery(chain.current, lastRendered.current, updates);
      chain.current = next.chain;
      router.replace(next.query ? `${pathname}?${next.query}` : pathname, { scroll: false });
    },
    [router, pathname],
  );
  return { get: (key: string) => params.get(key) ?? undefined, set };
}

/** The query strings asked for and not rendered yet (oldest first), and the query rendered when the first was asked. */
export type ReplaceChain = { base: string; queries: string[] };

/**
 * The query a change makes. The router applies a replace later (a transition) and may render the
 * replaces in between: a change builds on the latest query asked for while the rendered one is the
 * query before it or one of those asked for since (a tab, a date and a debounced search in quick
 * succession keep all three); a rendered query that is none of them came from elsewhere (back, a
 * link), and the change builds on it. A setter kept by an older render (a debounced search) reads
 * the query as rendered last, too.
 */
export function nextQuery(
  chain: ReplaceChain | null,
  rendered: string,
  updates: UrlUpdates | ((latest: URLSearchParams) => UrlUpdates),
): { query: string; chain: ReplaceChain } {
  let pending = chain;
  if (pending) {
    const done = pending.queries.indexOf(rendered);
    if (done >= 0) pending = { base: rendered, queries: pending.queries.slice(done + 1) };
    else if (rendered !== pending.base) pending = null;
  }
  const next = new URLSearchParams(pending?.queries.at(-1) ?? rendered);
  for (const [key, value] of Object.entries(typeof updates === "function" ? updates(new URLSearchParams(next)) : updates)) {
    if (value === undefined || value === "") next.delete(key);
    else next.set(key, value);
  }
  const query = next.toString();
  return { query, chain: { base: pending?.base ?? rendered, queries: [...(pending?.queries ?? []), query] } };
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
