/**
 * Waiting before a retry that a vendor's answer asked for (Shopify's and Mollie's 429 with
 * Retry-After). The wait is injected, so tests record it instead of waiting on the clock.
 */

/** How a client waits before a retry (tests pass one that records the wait and returns at once). */
export type Wait = (ms: number) => Promise<void>;

export const realWait: Wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Retry-After in seconds (a decimal number, as Shopify and Mollie send it), as milliseconds; 1 s when absent or not a number. */
export function retryAfterMs(header: string | null | undefined): number {
  const seconds = Number(header);
  return header !== null && header !== undefined && header.trim() !== "" && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : 1_000;
}
