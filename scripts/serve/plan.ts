import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * How many HTTP server processes to run: on PostgreSQL WEB_CONCURRENCY, else one per core; on
 * embedded PGlite always one, in the entry's own process (only one process may open its directory).
 * `cluster` says whether a primary process supervises forked workers (and runs the background work once).
 */
export function processPlan(input: { databaseUrl: string | undefined; webConcurrency: number | undefined; cores: number }): {
  cluster: boolean;
  workers: number;
} {
  const postgres = Boolean(input.databaseUrl && input.databaseUrl !== "memory:");
  if (!postgres) return { cluster: false, workers: 1 };
  return { cluster: true, workers: Math.max(1, input.webConcurrency ?? input.cores) };
}

/**
 * What a production build is made of. Everything under the project root except what the build never
 * reads (dependencies are covered by the lockfiles; tests, docs, scripts, the benchmark, data); over-inclusion
 * only costs a needless rebuild, never a skipped one.
 */
const SKIPPED_DIRS = new Set(["node_modules", ".next", ".data", ".git", "e2e", "bench", "docs", "tests", "scripts", "test-results", "playwright-report", ".ci"]);
// Tests and docs; TypeScript's incremental state and next-env.d.ts, which `tsc` and the build itself rewrite.
const SKIPPED_FILE = /(\.test\.tsx?|\.md|\.tsbuildinfo|^next-env\.d\.ts)$/;

function* sourceFiles(root: string, dir = root): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!(dir === root && SKIPPED_DIRS.has(entry.name)) && entry.name !== "node_modules") yield* sourceFiles(root, full);
    } else if (entry.isFile() && !SKIPPED_FILE.test(entry.name)) {
      yield full;
    }
  }
}

/**
 * A hash of the build's inputs: every source file's path and content, the installed dependencies
 * (node_modules/.package-lock.json, which npm rewrites on every install), and the NEXT_PUBLIC_*
 * variables Next.js inlines at build time. Hashing the content (about a thousand files, tens of
 * milliseconds) rather than modification times means a fresh checkout of the same commit counts as
 * current, and a file changed and changed back needs no rebuild.
 */
export function buildInputsHash(root: string, env: Record<string, string | undefined> = process.env): string {
  const hash = createHash("sha256");
  for (const file of sourceFiles(root)) {
    hash.update(path.relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  const installed = path.join(root, "node_modules", ".package-lock.json");
  if (existsSync(installed)) hash.update("installed\0").update(readFileSync(installed));
  for (const key of Object.keys(env).filter((k) => k.startsWith("NEXT_PUBLIC_")).sort()) {
    hash.update(`env\0${key}=${env[key]}\0`);
  }
  return hash.digest("hex");
}

/** Recorded beside the build after `next build` succeeds (.next is the build's own directory). */
export const buildStampFile = (root: string) => path.join(root, ".next", "rx-build-inputs");

/** The build is current when it exists and was made from the inputs there are now. */
export function buildIsCurrent(root: string, inputsHash = buildInputsHash(root)): boolean {
  const stamp = buildStampFile(root);
  if (!existsSync(path.join(root, ".next", "BUILD_ID")) || !existsSync(stamp)) return false;
  // A build newer than its stamp was made by a plain `next build`, which records nothing: not ours to trust.
  if (statSync(path.join(root, ".next", "BUILD_ID")).mtimeMs > statSync(stamp).mtimeMs + 1000) return false;
  return readFileSync(stamp, "utf8").trim() === inputsHash;
}
