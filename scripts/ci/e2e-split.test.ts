import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { specSecondsFromListOutput, splitSpecs, unmeasuredSeconds, type Durations } from "./e2e-split";

const root = path.resolve(import.meta.dirname, "../..");

describe("the browser specs' split between the CI lanes", () => {
  it("gives each spec to the lane that would end earlier, longest first, so both lanes end together", () => {
    const durations: Durations = { vitest: { pglite: 100, postgres: 20 }, specs: { "e2e/a.spec.ts": 60, "e2e/b.spec.ts": 50, "e2e/c.spec.ts": 40, "e2e/d.spec.ts": 10 } };
    const split = splitSpecs(["e2e/a.spec.ts", "e2e/b.spec.ts", "e2e/c.spec.ts", "e2e/d.spec.ts"], durations);
    // postgres 20 → +60 (a) = 80 → +50 (b) = 130; pglite 100 → +40 (c) = 140; postgres 130 → +10 (d) = 140.
    expect(split).toEqual({ pglite: ["e2e/c.spec.ts"], postgres: ["e2e/a.spec.ts", "e2e/b.spec.ts", "e2e/d.spec.ts"] });
  });

  it("runs every spec exactly once, unmeasured ones counted as a default, and pinned ones on PostgreSQL", () => {
    const pinned = { "e2e/pinned.spec.ts": "needs a second process on the database" };
    const specs = [...Object.keys(pinned), "e2e/new.spec.ts", "e2e/old.spec.ts"];
    const split = splitSpecs(specs, { vitest: { pglite: 0, postgres: 0 }, specs: { "e2e/old.spec.ts": unmeasuredSeconds + 10 } }, pinned);
    expect([...split.pglite, ...split.postgres].sort()).toEqual([...specs].sort());
    expect(split.postgres).toContain("e2e/pinned.spec.ts");
    // old (default + 10) to the empty PGlite lane; new (the default) beside the pinned one, which counts the default too.
    expect(split.pglite).toEqual(["e2e/old.spec.ts"]);
    expect(split.postgres).toContain("e2e/new.spec.ts");
  });

  it("reads the seconds per spec file from Playwright's list reporter", () => {
    const lines = [
      "  ✓   1 [chromium] › e2e/languages.spec.ts:17:3 › a browser › gets the German sign-in page (2.7s)",
      "  ✓   2 [chromium] › e2e/languages.spec.ts:39:1 › English stays the default (340ms)",
      "  ✘   3 [chromium] › e2e/appointments.spec.ts:20:1 › a reminder (1.5m)",
      "  -   4 [chromium] › e2e/skipped.spec.ts:1:1 › skipped",
      "[WebServer] unrelated (3.0s)",
    ];
    expect(specSecondsFromListOutput(lines)).toEqual({ "e2e/languages.spec.ts": 3, "e2e/appointments.spec.ts": 90 });
  });

  it("records durations only of specs that exist (scripts/ci/e2e-durations.json)", () => {
    const recorded = JSON.parse(readFileSync(path.join(root, "scripts/ci/e2e-durations.json"), "utf8")) as Durations;
    const specs = readdirSync(path.join(root, "e2e")).filter((f) => f.endsWith(".spec.ts")).map((f) => `e2e/${f}`);
    expect(Object.keys(recorded.specs).filter((s) => !specs.includes(s))).toEqual([]);
  });
});
