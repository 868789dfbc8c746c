/**
 * Issue 23: every README example runs as written, in order, against a started service. The shell
 * blocks (```sh, ```bash) of README.md and of the docs the walkthroughs moved to (issue 38:
 * scripts/readme-blocks.ts, EXAMPLE_DOCS, in that order) run one after another in one bash session (variables set by
 * one block are there for the next, as for a reader pasting them into one terminal), against this
 * run's server: the working directory has `.data/demo.json` (the server's own), and
 * `localhost:3000` — the README's address — reads as this server's. A block preceded by
 * `<!-- readme-test: not run (reason) -->` is skipped; the README shows that marker's reason. A
 * block marked `<!-- readme-test: before start (reason) -->` is one a reader runs before `npm start`:
 * on the embedded database (one process's) it runs on a DATA_DIR, and so a database, of its own.
 * `set -e -o pipefail`, and curl fails on an HTTP error status (`--fail-with-body`), so an example
 * whose request is refused fails here with the block's text and the answer. History expansion is
 * on, as in the terminal a reader pastes into (scripts/readme-blocks.test.ts checks each block for it).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { e2eDatabaseUrl } from "../scripts/e2e/database-url";
import { exampleShellBlocks } from "../scripts/readme-blocks";
import { e2eDataDir } from "./demo";

test("the README's shell examples run as written, in order", async ({ baseURL }) => {
  test.setTimeout(600_000);
  const root = path.resolve(import.meta.dirname, "..");
  const blocks = exampleShellBlocks(root);
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
    // The server's own database (scripts/e2e/serve.ts runs it on `<name>_e2e`), where `npm run org` must write.
    const onPostgres = Boolean(process.env.DATABASE_URL?.startsWith("postgres"));
    const databaseUrl = onPostgres ? { DATABASE_URL: e2eDatabaseUrl(process.env.DATABASE_URL!) } : {};
    let script = `set -o history -o histexpand\nset -e -o pipefail\ncurl() { command curl --fail-with-body "$@"; }\n`;
    for (const b of blocks) {
      if (b.skipped) continue;
      const code = b.code.replaceAll("localhost:3000", host);
      // Before the first start, as on a fresh clone: the embedded database of a DATA_DIR of its own.
      const run = b.beforeStart && !onPostgres ? `(\nexport DATA_DIR="$(mktemp -d)"\n${code}\n)` : code;
      script += `echo "::block ${b.file}:${b.line}"\n${run}\necho\n`;
    }
    // Read from standard input, line by line as a terminal gives it (history expansion works on lines read).
    const run = spawnSync("bash", ["--norc", "--noprofile", "-s"], { input: script, cwd, env: { ...process.env, ...databaseUrl, DATA_DIR: dataDir }, encoding: "utf8", timeout: 540_000 });
    const lastBlock = [...(run.stdout ?? "").matchAll(/::block (\S+\.md:\d+)/g)].at(-1)?.[1];
    expect(run.status, `failed in the block at ${lastBlock}:\n${(run.stdout ?? "").slice(-1500)}\n${(run.stderr ?? "").slice(-1500)}`).toBe(0);
    expect(run.stderr, "a line was taken by history expansion").not.toContain("event not found");
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});
