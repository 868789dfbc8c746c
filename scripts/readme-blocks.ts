/**
 * The shell blocks (```sh, ```bash) of the README and the docs it sends readers to (EXAMPLE_DOCS),
 * for the README tests: e2e/readme-examples.spec.ts runs them in order against a started service;
 * scripts/readme-blocks.test.ts checks that each pastes into an interactive bash. A marker on one of
 * the two lines before a block says how it is run:
 *
 *   <!-- readme-test: not run (reason) -->       skipped; the README shows the reason
 *   <!-- readme-test: before start (reason) -->  run as a reader does before `npm start`: on the
 *                                                embedded database, on a DATA_DIR of its own
 */
import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The files whose examples run, in the order a reader pastes them into one terminal: later pages
 * use what docs/api/orders.md sets (D, MKEY, PKEY, SHOP, SKU). Paths from the repository's root.
 */
export const EXAMPLE_DOCS = [
  "README.md",
  "docs/operations.md",
  "docs/api/orders.md",
  "docs/api/prescriptions.md",
  "docs/api/patients.md",
  "docs/api/public.md",
  "docs/api/patient-data.md",
  "docs/api/webhooks.md",
  // Steps of a change, not examples: their blocks are marked not run, and only checked for pasting.
  "docs/testing.md",
  "docs/recipes.md",
] as const;

export type DocBlock = ReadmeBlock & { file: string };

/** Every example file's shell blocks, in EXAMPLE_DOCS order, each with its file. */
export function exampleShellBlocks(root: string): DocBlock[] {
  return EXAMPLE_DOCS.flatMap((file) => readmeShellBlocks(readFileSync(path.join(root, file), "utf8")).map((b) => ({ ...b, file })));
}
export type ReadmeBlock = { line: number; code: string; skipped: string | null; beforeStart: boolean };

export function readmeShellBlocks(readme: string): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  const lines = readme.split("\n");
  const marker = (i: number, kind: string) => {
    const pattern = new RegExp(`<!-- readme-test: ${kind} \\((.+)\\) -->`);
    return pattern.exec(lines[i - 1] ?? "") ?? pattern.exec(lines[i - 2] ?? "");
  };
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash)\s*$/.test(lines[i])) continue;
    const skipped = marker(i, "not run")?.[1] ?? null;
    const beforeStart = marker(i, "before start") !== null;
    const start = i + 1;
    while (i + 1 < lines.length && lines[++i] !== "```");
    blocks.push({ line: start, code: lines.slice(start, i).join("\n"), skipped, beforeStart });
  }
  return blocks;
}
