import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "..", "..");

describe("sign-in throttle under the production entry's HTTP workers", () => {
  it("counts failures of all workers in the primary: 5 + 5 failures block the pair in both workers", async () => {
    const { stdout } = await promisify(execFile)("npx", ["tsx", "tests/sign-in-throttle-cluster.ts"], { cwd: REPO, timeout: 300_000 });
    const results = JSON.parse(stdout.trim().split("\n").at(-1)!) as { before: number; after: number }[];
    expect(results).toHaveLength(2);
    for (const r of results) {
      expect(r.before).toBe(0);
      expect(r.after).toBeGreaterThan(14 * 60_000);
    }
  });
});
