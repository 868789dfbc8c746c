/**
 * `npm run test:ci`: everything `npm test` runs, on PGlite and on PostgreSQL, in one go, with the
 * work that does not touch a database done once:
 *  1. the type check (tsc, the whole project), then the production build (scripts/serve.ts --build,
 *     without Next.js's own second type check); both browser passes reuse that build; the PGlite
 *     Vitest pass, which needs no build, runs beside them from the start;
 *  2. two lanes, each with its own database, e2e port, DATA_DIR and Playwright output:
 *       pglite:   Vitest (all files), then its share of the browser specs
 *       postgres: the other browser specs, then Vitest on the files that use a database (the PGlite
 *                 pass notes which: tests/setup.ts, RX_TEST_DATABASE_USE)
 *     The browser suite drives the same server code on either database, so each spec runs once, on
 *     one lane, shared out so that both lanes end together (scripts/ci/e2e-split.ts); every
 *     database-level rule (queries, locks, concurrency) is a Vitest test and runs on both. The lanes
 *     run Vitest at different times, so the two CPU-bound passes do not overlap.
 * The PostgreSQL lane uses DATABASE_URL when it names a postgres:// server, else a throwaway
 * cluster of its own (scripts/ci/postgres.sh). Prints each stage's wall time at the end; fails when
 * any stage fails (each lane stops at its first failure, the other lane runs on).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { specSecondsFromListOutput, splitSpecs, type Durations } from "./e2e-split";

const root = path.resolve(import.meta.dirname, "../..");
const basePort = Number(process.env.E2E_PORT ?? 3100);
const times: string[] = [];
/** Every output line of the browser passes, for the measured spec durations. */
const browserLines: string[] = [];

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(0)} s`;
}

/** Runs a command, its output lines prefixed by the lane's name; resolves to its exit status. */
function run(lane: string, command: string[], env: NodeJS.ProcessEnv, onLine: (line: string) => void = () => {}): Promise<number> {
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [child.stdout, child.stderr]) {
    let rest = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop()!;
      for (const line of lines) (process.stdout.write(`[${lane}] ${line}\n`), onLine(line));
    });
    stream.on("end", () => rest && process.stdout.write(`[${lane}] ${rest}\n`));
  }
  return new Promise((resolve) =>
    child.on("close", (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      times.push(`${lane.padEnd(8)} ${command.slice(0, 3).join(" ").padEnd(34)} ${seconds(started).padStart(6)}${status ? "  FAILED" : ""}`);
      if (command.includes("vitest")) vitestSeconds[lane as "pglite" | "postgres"] = Math.round((performance.now() - started) / 1000);
      resolve(status);
    }),
  );
}

/** The test files that used a database in the PGlite pass (its log), or null when that pass wrote none. */
function filesUsingDatabase(log: string): string[] | null {
  if (!existsSync(log)) return null;
  const lines = readFileSync(log, "utf8").split("\n").filter(Boolean).map((line) => line.split("\t"));
  return lines.filter(([, use]) => use === "database").map(([file]) => file!);
}

function postgresUrl(): { url: string; stop?: () => void } {
  const given = process.env.DATABASE_URL;
  if (given?.startsWith("postgres")) return { url: given };
  const script = path.join(root, "scripts/ci/postgres.sh");
  const started = spawnSync(script, ["start"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const url = /^DATABASE_URL=(.+)$/m.exec(started.stdout ?? "")?.[1];
  if (started.status !== 0 || !url) throw new Error("PostgreSQL did not start (scripts/ci/postgres.sh start)");
  return { url, stop: () => spawnSync(script, ["stop"], { cwd: root, stdio: "inherit" }) };
}

const durationsFile = path.join(root, "scripts/ci/e2e-durations.json");
const measuredFile = path.join(root, ".data/ci/e2e-durations.json");
const vitestSeconds: Partial<Durations["vitest"]> = {};

/** This run's durations (the recorded ones where this run measured none), for the next split. */
function writeMeasuredDurations(recorded: Durations): void {
  const specs = { ...recorded.specs, ...specSecondsFromListOutput(browserLines) };
  const measured: Durations = { vitest: { ...recorded.vitest, ...vitestSeconds }, specs: Object.fromEntries(Object.entries(specs).sort()) };
  writeFileSync(measuredFile, `${JSON.stringify(measured, null, 2)}\n`);
  console.log(`\n--- measured durations in ${path.relative(root, measuredFile)} (copy to ${path.relative(root, durationsFile)} to split by them)`);
}

async function main(): Promise<number> {
  const started = performance.now();
  const env = { ...process.env };
  delete env.DATABASE_URL;
  const vitest = ["npx", "vitest", "run"];
  const playwright = ["npx", "playwright", "test"];

  const postgres = postgresUrl();
  const useLog = path.join(root, ".data/ci/database-use.tsv");
  mkdirSync(path.dirname(useLog), { recursive: true });
  rmSync(useLog, { force: true });
  const pgliteEnv = {
    ...env,
    RX_TEST_DATABASE_USE: useLog,
    E2E_PORT: String(basePort),
    E2E_DATA_DIR: ".data/e2e",
    E2E_OUTPUT_DIR: "test-results/pglite",
    E2E_SKIP_BUILD: "1",
  };
  const postgresEnv = {
    ...env,
    DATABASE_URL: postgres.url,
    E2E_PORT: String(basePort + 1),
    E2E_DATA_DIR: ".data/e2e-postgres",
    E2E_OUTPUT_DIR: "test-results/postgres",
    E2E_SKIP_BUILD: "1",
  };
  const recorded = JSON.parse(readFileSync(durationsFile, "utf8")) as Durations;
  const specs = readdirSync(path.join(root, "e2e")).filter((f) => f.endsWith(".spec.ts")).map((f) => `e2e/${f}`);
  const split = splitSpecs(specs, recorded);
  const browser = (lane: "pglite" | "postgres", env: NodeJS.ProcessEnv) =>
    split[lane].length ? run(lane, [...playwright, ...split[lane]], env, (line) => browserLines.push(line)) : Promise.resolve(0);
  try {
    // Vitest needs no build: the PGlite pass starts at once, beside the type check and the build.
    // Each lane stops at its first failing stage; no browser pass starts without a type-checked
    // build. The PostgreSQL lane's Vitest waits for the PGlite Vitest, which notes the files that
    // use a database (all files when it noted none).
    const pgliteVitest = run("pglite", vitest, pgliteEnv);
    const built = (async () =>
      (await run("all", ["npx", "tsc", "--noEmit"], env)) === 0 &&
      // Type checked just above, whole project: the build's own check of the app would repeat it.
      (await run("all", [process.execPath, "--import", "tsx", "scripts/serve.ts", "--build"], { ...env, BUILD_SKIP_TYPECHECK: "1" })) === 0)();
    const lanes = await Promise.all([
      pgliteVitest.then(async (status) => status === 0 && (await built) && (await browser("pglite", pgliteEnv)) === 0),
      (async () => {
        if (!(await built) || (await browser("postgres", postgresEnv)) !== 0) return false;
        await pgliteVitest;
        return (await run("postgres", [...vitest, ...(filesUsingDatabase(useLog) ?? [])], postgresEnv)) === 0;
      })(),
    ]);
    return lanes.every(Boolean) ? 0 : 1;
  } finally {
    postgres.stop?.();
    writeMeasuredDurations(recorded);
    console.log(`\n--- stage times (wall clock; the two lanes overlap)\n${times.join("\n")}\nall      ${"".padEnd(34)} ${seconds(started).padStart(6)}`);
  }
}

main().then(
  (status) => process.exit(status),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
