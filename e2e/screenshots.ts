import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";

/**
 * Screenshots are made by their own command, `npm run screenshots` (SCREENSHOTS=1), never on an
 * ordinary test run: they cost time and check nothing. With SCREENSHOTS_TO_DOCS=1 as well, the
 * ones the docs show (docs/portals.md) replace those committed under docs/screenshots; the others go under
 * test-results for review.
 */
export const SCREENSHOTS = process.env.SCREENSHOTS === "1";
export const SCREENSHOTS_TO_DOCS = process.env.SCREENSHOTS_TO_DOCS === "1";

/** Writes the page's screenshot to `file` (full page unless told) when screenshots are on; else nothing. */
export async function screenshot(page: Page, file: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: options.fullPage ?? true });
}
