/**
 * Issue 23: every README example runs as written, in order, against a started service. The shell
 * blocks (```sh, ```bash) of README.md run one after another in one bash session (variables set by
 * one block are there for the next, as for a reader pasting them into one terminal), against this
 * run's server: the working directory has `.data/demo.json` (the server's own), and
 * `localhost:3000` — the README's address — reads as this server's. A block preceded by
 * `<!-- readme-test: not run (reason) -->` is skipped; the README shows that marker's reason.
 * `set -e -o pipefail`, and curl fails on an HTTP error status (`--fail-with-body`), so an example
 * whose request is refused fails here with the block's text and the answer.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { e2eDatabaseUrl } from "../scripts/e2e/database-url";
import { e2eDataDir } from "./demo";

type Block = { line: number; code: string; skipped: string | null };

/** The README's shell blocks, with the "not run" reason of each skipped one. */
export function readmeShellBlocks(readme: string): Block[] {
  const blocks: Block[] = [];
  const lines = readme.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(sh|bash)\s*$/.exec(lines[i]);
    if (!open) continue;
    const marker = /<!-- readme-test: not run \((.+)\) -->/.exec(lines[i - 1] ?? "") ?? /<!-- readme-test: not run \((.+)\) -->/.exec(lines[i - 2] ?? "");
    const start = i + 1;
    while (i + 1 < lines.length && lines[++i] !== "```");
    blocks.push({ line: start, code: lines.slice(start, i).join("\n"), skipped: marker?.[1] ?? null });
  }
  return blocks;
}

test("the README's shell examples run as written, in order", async ({ baseURL }) => {
  test.setTimeout(180_000);
  const root = path.resolve(import.meta.dirname, "..");
  const blocks = readmeShellBlocks(readFileSync(path.join(root, "README.md"), "utf8"));
  expect(blocks.filter((b) => !b.skipped).length).toBeGreaterThan(3);
  const host = new URL(baseURL!).host;
  // The server's DATA_DIR (e2eDataDir: one per database pass): its sandbox file and the sandbox signer's files.
  const dataDir = e2eDataDir;
  // A clone of the reader's working directory: the sandbox file of this run's server, and the scripts npm runs.
  const cwd = mkdtempSync(path.join(os.tmpdir(), "rx-readme-"));
  try {
    for (const entry of readdirSync(root)) if (![".data", ".next", ".git"].includes(entry)) symlinkSync(path.join(root, entry), path.join(cwd, entry));
    mkdirSync(path.join(cwd, ".data"));
    // The server's DATA_DIR is .data/e2e, a fresh clone's .data: what the examples read from .data is linked.
    mkdirSync(path.join(dataDir, "signed"), { recursive: true });
    for (const entry of ["demo.json", "signed"]) symlinkSync(path.join(dataDir, entry), path.join(cwd, ".data", entry));
    let script = `set -e -o pipefail\ncurl() { command curl --fail-with-body "$@"; }\n`;
    for (const b of blocks) {
      if (b.skipped) continue;
      script += `echo "::block README.md:${b.line}"\n${b.code.replaceAll("localhost:3000", host)}\necho\n`;
    }
    // The server's own database (scripts/e2e/serve.ts runs it on `<name>_e2e`), where `npm run org` must write.
    const databaseUrl = process.env.DATABASE_URL?.startsWith("postgres") ? { DATABASE_URL: e2eDatabaseUrl(process.env.DATABASE_URL) } : {};
    const run = spawnSync("bash", ["-c", script], { cwd, env: { ...process.env, ...databaseUrl, DATA_DIR: dataDir }, encoding: "utf8", timeout: 150_000 });
    const lastBlock = [...(run.stdout ?? "").matchAll(/::block (README\.md:\d+)/g)].at(-1)?.[1];
    expect(run.status, `failed in the block at ${lastBlock}:\n${(run.stdout ?? "").slice(-1500)}\n${(run.stderr ?? "").slice(-1500)}`).toBe(0);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});
