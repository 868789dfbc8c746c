"use client";

import { useSyncExternalStore } from "react";
import { DEFAULT_TIME_ZONE, runtimeTimeZone } from "./format";

const unchanging = () => () => {};

/**
 * The user's time zone for the calendars: the browser's once hydrated, DEFAULT_TIME_ZONE in the
 * server's render (so the first render matches the server's, and the page then follows the browser).
 */
export function useTimeZone(): string {
  return useSyncExternalStore(unchanging, runtimeTimeZone, () => DEFAULT_TIME_ZONE);
}
