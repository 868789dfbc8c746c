"use client";

import { useEffect, useState } from "react";
import { pageOfQuery, queryOfPage, useUrlQuery } from "./use-url-state";

/** How long typing must pause before a list searches. */
const SEARCH_PAUSE_MS = 300;

/**
 * A list's search box and page, kept in the query string (`q`, `page`; with `prefix`, `<prefix>q`
 * and `<prefix>page` for a page that shows more than one list): `text` is what is typed, `search`
 * what the list searches for (the trimmed text once typing pauses; undefined when empty), and a new
 * search goes back to the first page.
 */
export function useListSearch(prefix = "") {
  const query = useUrlQuery();
  const searchKey = `${prefix}q`;
  const pageKey = `${prefix}page`;
  const search = query.get(searchKey);
  const [text, setText] = useState(search ?? "");
  // The URL changed under the box (back, a link): the box shows its search.
  const [shownSearch, setShownSearch] = useState(search);
  if (shownSearch !== search) {
    setShownSearch(search);
    if ((search ?? "") !== text.trim()) setText(search ?? "");
  }
  const { set } = query;
  useEffect(() => {
    const typed = text.trim() || undefined;
    if (typed === search) return;
    const timer = setTimeout(() => set({ [searchKey]: typed, [pageKey]: undefined }), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, search, set, searchKey, pageKey]);
  return {
    text,
    setText,
    search,
    page: pageOfQuery(query.get(pageKey)),
    setPage: (page: number) => set({ [pageKey]: queryOfPage(page) }),
  };
}
