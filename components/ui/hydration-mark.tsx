"use client";

import { useEffect } from "react";

/**
 * Marks the document once React has hydrated it (`<html data-hydrated>`): until then a server-rendered
 * form looks ready but its handlers are not attached, and what is typed or ticked is lost. Browser
 * tests wait for the mark before they type (e2e/demo.ts).
 */
export function HydrationMark() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}
