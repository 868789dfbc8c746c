import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { anchorsOf, citationsOf, deadCitations, slug } from "./doc-anchors";

/**
 * Issue 38: code comments and documents cite decisions as `docs/decisions/<topic>.md#<heading>`;
 * a heading renamed or a file moved left citations pointing nowhere. Every cited file and anchor
 * must exist (anchors by GitHub's slug rule).
 */
describe("document citations", () => {
  it("slugs headings as GitHub does", () => {
    expect(slug("Issue 36: the spec's own words")).toBe("issue-36-the-specs-own-words");
    expect(slug("Storefront: products, stock, reservations, order status")).toBe("storefront-products-stock-reservations-order-status");
    expect(slug("Spec fidelity (rules 1, 3, 5, 6)")).toBe("spec-fidelity-rules-1-3-5-6");
    expect(slug("New-request e-mails to doctors")).toBe("new-request-e-mails-to-doctors");
    expect(slug("`OPTIONS` and **HEAD** in [the API](x.md)")).toBe("options-and-head-in-the-api");
    expect(slug("Ärztinnen und Ärzte → Übersicht")).toBe("ärztinnen-und-ärzte--übersicht");
    expect([...anchorsOf("# A\n## Same\n```\n## Not a heading\n```\n### Same\n")]).toEqual(["a", "same", "same-1"]);
  });

  it("finds citations in comments and Markdown links, relative to where they are written", () => {
    expect(citationsOf("server/x.ts", "// see docs/decisions/intake.md#re-routing.")).toEqual([
      { file: "server/x.ts", line: 1, target: "docs/decisions/intake.md", anchor: "re-routing" },
    ]);
    expect(citationsOf("docs/a.md", "one\n[here](decisions/payouts.md#split-payouts) and [top](#a), [web](https://x.md#y)")).toEqual([
      { file: "docs/a.md", line: 2, target: "docs/decisions/payouts.md", anchor: "split-payouts" },
      { file: "docs/a.md", line: 2, target: "docs/a.md", anchor: "a" },
    ]);
    // Written out from the root inside a document's link, it is still resolved as a link.
    const rooted = ["[x](docs", "b.md#c)"].join("/");
    expect(citationsOf("docs/a.md", rooted)).toEqual([{ file: "docs/a.md", line: 1, target: "docs/docs/b.md", anchor: "c" }]);
  });

  it("names file:line of a dead file and of a dead anchor", () => {
    const repo = mkdtempSync(path.join(os.tmpdir(), "doc-anchors-"));
    try {
      mkdirSync(path.join(repo, "docs"));
      mkdirSync(path.join(repo, "server"));
      writeFileSync(path.join(repo, "docs", "a.md"), "# A\n\n## Kept heading\n\n[gone](b.md) [ok](#kept-heading)\n");
      const cite = (target: string) => ["docs", target].join("/");
      writeFileSync(path.join(repo, "server", "x.ts"), `// ${cite("a.md#kept-heading")}\n// ${cite("a.md#renamed-heading")}\n`);
      expect(deadCitations(repo)).toEqual([
        "docs/a.md:5: docs/b.md does not exist",
        "server/x.ts:2: docs/a.md has no heading #renamed-heading",
      ]);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it("every cited document and heading exists", () => {
    expect(deadCitations(path.resolve(import.meta.dirname, ".."))).toEqual([]);
  });
});
