import path from "node:path";
import { describe, expect, it } from "vitest";
import { readSources } from "./import-scan";

/**
 * Issue 37: a portal page loaded with one prefetch per visible link (a queue of 50 orders, the whole
 * navigation twice on a phone). Every next/link Link says prefetch={false}; the side navigation
 * prefetches the link the reader points at (components/portal-nav.tsx).
 */
describe("links do not prefetch as they appear", () => {
  it("every <Link> of the pages and components sets prefetch", () => {
    const missing: string[] = [];
    for (const [file, source] of readSources(path.resolve(import.meta.dirname, ".."), ["app", "components"])) {
      if (!file.endsWith(".tsx")) continue;
      for (const match of source.matchAll(/<Link\b(?!\w)([^>]*?)\/?>/gs)) {
        if (!/\bprefetch=/.test(match[1])) missing.push(`${file}: ${match[0].slice(0, 80)}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
