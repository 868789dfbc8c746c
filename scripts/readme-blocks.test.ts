/**
 * Every shell block of the README pastes into an interactive bash (issue 33): there, history
 * expansion is on, and a `!` inside double quotes ("… !t.requires_prescription …") is taken as an
 * event ("event not found") and the line is dropped. Each block is read by bash with history
 * expansion on and execution off (`set -n`), as an interactive shell would read it.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readmeShellBlocks } from "./readme-blocks";

const readme = readFileSync(path.resolve(import.meta.dirname, "..", "README.md"), "utf8");

/** What bash says reading `code` as an interactive shell would (history expansion on), running nothing. */
function readAsInteractive(code: string): string {
  const run = spawnSync("bash", ["--norc", "--noprofile", "-s"], { input: `set -o history -o histexpand\nset -n\n${code}\n`, encoding: "utf8" });
  return run.stderr;
}

describe("the README's shell blocks in an interactive bash", () => {
  it("finds the blocks, skipped ones too", () => {
    expect(readmeShellBlocks(readme).length).toBeGreaterThan(10);
  });

  it("sees what a paste would break (the check itself)", () => {
    expect(readAsInteractive(`node -p "[1].find(t => !t.requires_prescription)"`)).toContain("event not found");
    expect(readAsInteractive(`node -p '[1].find(t => !t)' && [ ! -f x ] || echo "a != b"`)).toBe("");
  });

  for (const block of readmeShellBlocks(readme)) {
    it(`README.md:${block.line} has nothing history expansion takes`, () => {
      expect(readAsInteractive(block.code)).toBe("");
    });
  }
});
