/**
 * Every shell block of the README and of the docs whose examples run (EXAMPLE_DOCS) pastes into an interactive bash (issue 33): there, history
 * expansion is on, and a `!` inside double quotes ("… !t.requires_prescription …") is taken as an
 * event ("event not found") and the line is dropped. Each block is read by bash with history
 * expansion on and execution off (`set -n`), as an interactive shell would read it.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLE_DOCS, exampleShellBlocks } from "./readme-blocks";

const blocks = exampleShellBlocks(path.resolve(import.meta.dirname, ".."));

/** What bash says reading `code` as an interactive shell would (history expansion on), running nothing. */
function readAsInteractive(code: string): string {
  const run = spawnSync("bash", ["--norc", "--noprofile", "-s"], { input: `set -o history -o histexpand\nset -n\n${code}\n`, encoding: "utf8" });
  return run.stderr;
}

describe("the README's and docs' shell blocks in an interactive bash", () => {
  it("finds the blocks, skipped ones too, and the README's test command", () => {
    expect(blocks.length).toBeGreaterThan(10);
    // The walkthroughs moved out of the README still carry their examples.
    for (const file of ["README.md", "docs/api/orders.md", "docs/api/prescriptions.md", "docs/api/webhooks.md"]) {
      expect(EXAMPLE_DOCS, file).toContain(file);
      expect(blocks.filter((b) => b.file === file).length, file).toBeGreaterThan(0);
    }
    expect(blocks.some((b) => b.file === "README.md" && b.code.trim() === "npm test")).toBe(true);
  });

  it("sees what a paste would break (the check itself)", () => {
    expect(readAsInteractive(`node -p "[1].find(t => !t.requires_prescription)"`)).toContain("event not found");
    expect(readAsInteractive(`node -p '[1].find(t => !t)' && [ ! -f x ] || echo "a != b"`)).toBe("");
  });

  for (const block of blocks) {
    it(`${block.file}:${block.line} has nothing history expansion takes`, () => {
      expect(readAsInteractive(block.code)).toBe("");
    });
  }
});
