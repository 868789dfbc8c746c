"use client";

import { useEffect, useState } from "react";

/** How long typing must pause before a list searches. */
const SEARCH_PAUSE_MS = 300;

/**
 * A list's search box and page: `text` is what is typed, `search` what the list searches for (the
 * trimmed text once typing pauses; undefined when empty), and a new search goes back to the first page.
 */
export function useListSearch() {
  const [text, setText] = useState("");
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(0);
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(text.trim());
      setPage(0);
    }, SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return { text, setText, search: search || undefined, page, setPage };
}
