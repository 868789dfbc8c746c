/**
 * `npm run test:ci`: everything `npm test` runs, on PGlite and on PostgreSQL, in one go, with the
 * work that does not touch a database done once. Three streams start together, each with what it
 * needs and nothing more (this machine has two cores; the browser suite mostly waits on the pages):
 *   checks:  the type check (tsc, the whole project), then Vitest on PGlite (all files), then Vitest
 *            on PostgreSQL for the files that used a database (the PGlite pass notes which:
 *            tests/setup.ts, RX_TEST_DATABASE_USE);
 *   browser: the production build (scripts/serve.ts --build, without Next.js's second type check),
 *            then the browser suite in two halves at once, each against its own server, database,
 *            e2e port, DATA_DIR and Playwright output: --shard 1/2 on PGlite, --shard 2/2 on PostgreSQL.
 * The browser suite drives the same server code on either database, so each spec runs once, half on
 * each; every database-level rule (queries, locks, concurrency) is a Vitest test and runs on both.
 * The PostgreSQL passes use DATABASE_URL when it names a postgres:// server, else a throwaway
 * cluster of their own (scripts/ci/postgres.sh). Prints each stage's wall time at the end; fails when
 * any stage fails (a stream stops at its first failure, the others run on).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const basePort = Number(process.env.E2E_PORT ?? 3100);
const times: string[] = [];

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(0)} s`;
}

/** Runs a command, its output lines prefixed by the lane's name; resolves to its exit status. */
function run(lane: string, command: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  const child = spawn(command[0], command.slice(1), { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  for (const stream of [child.stdout, child.stderr]) {
    let rest = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop()!;
      for (const line of lines) process.stdout.write(`[${lane}] ${line}\n`);
    });
    stream.on("end", () => rest && process.stdout.write(`[${lane}] ${rest}\n`));
  }
  return new Promise((resolve) =>
    child.on("close", (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      times.push(`${lane.padEnd(8)} ${command.slice(0, 3).join(" ").padEnd(34)} ${seconds(started).padStart(6)}${status ? "  FAILED" : ""}`);
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
  const e2e = { E2E_SKIP_BUILD: "1" };
  const pgliteEnv = { ...env, RX_TEST_DATABASE_USE: useLog, E2E_PORT: String(basePort), E2E_DATA_DIR: ".data/e2e", E2E_OUTPUT_DIR: "test-results/pglite", ...e2e };
  const postgresEnv = { ...env, DATABASE_URL: postgres.url, E2E_PORT: String(basePort + 1), E2E_DATA_DIR: ".data/e2e-postgres", E2E_OUTPUT_DIR: "test-results/postgres", ...e2e };
  try {
    const streams = await Promise.all([
      (async () => {
        if ((await run("checks", ["npx", "tsc", "--noEmit"], env)) !== 0) return false;
        if ((await run("pglite", vitest, pgliteEnv)) !== 0) return false;
        // The files that used a database on PGlite (all files when the pass noted none).
        return (await run("postgres", [...vitest, ...(filesUsingDatabase(useLog) ?? [])], postgresEnv)) === 0;
      })(),
      (async () => {
        // The whole project is type checked in the other stream: the build's own check would repeat it.
        if ((await run("browser", [process.execPath, "--import", "tsx", "scripts/serve.ts", "--build"], { ...env, BUILD_SKIP_TYPECHECK: "1" })) !== 0) return false;
        const halves = await Promise.all([run("pglite", [...playwright, "--shard=1/2"], pgliteEnv), run("postgres", [...playwright, "--shard=2/2"], postgresEnv)]);
        return halves.every((status) => status === 0);
      })(),
    ]);
    return streams.every(Boolean) ? 0 : 1;
  } finally {
    postgres.stop?.();
    console.log(`\n--- stage times (wall clock; the streams overlap)\n${times.join("\n")}\nall      ${"".padEnd(34)} ${seconds(started).padStart(6)}`);
  }
}

main().then(
  (status) => process.exit(status),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
