import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const fixture = path.join(import.meta.dirname, "fixtures", "rate-limit-cluster.ts");
const run = (role: string) =>
  JSON.parse(execFileSync(process.execPath, ["--import", "tsx", fixture], { env: { ...process.env, FIXTURE_ROLE: role, LOG_LEVEL: "silent" }, encoding: "utf8", timeout: 300_000 }).trim().split("\n").at(-1)!) as { allowed: number };

describe("the rate limit across the production entry's HTTP workers", () => {
  it("is counted once for all workers: 10 requests of one client in one window, 5 allowed", () => {
    expect(run("http").allowed).toBe(5);
  });

  it("would be counted per process without the primary (the check that the test can tell the difference)", () => {
    expect(run("other").allowed).toBe(10);
  });
});
