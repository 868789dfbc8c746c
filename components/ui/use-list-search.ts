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
    const write = () => {
      clearTimeout(timer);
      document.removeEventListener("pointerdown", write, true);
      document.removeEventListener("keydown", writeOnEnter, true);
      set({ [searchKey]: typed, [pageKey]: undefined });
    };
    // A click or Enter (on a link of the list) writes a pending search first: written after the
    // click's navigation had started, it would replace the page just opened with the list again.
    const writeOnEnter = (event: KeyboardEvent) => {
      if (event.key === "Enter") write();
    };
    const timer = setTimeout(write, SEARCH_PAUSE_MS);
    document.addEventListener("pointerdown", write, true);
    document.addEventListener("keydown", writeOnEnter, true);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("pointerdown", write, true);
      document.removeEventListener("keydown", writeOnEnter, true);
    };
  }, [text, search, set, searchKey, pageKey]);
  return {
    text,
    setText,
    search,
    page: pageOfQuery(query.get(pageKey)),
    setPage: (page: number) => set({ [pageKey]: queryOfPage(page) }),
  };
}
