import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import os from "node:os";
import pg from "pg";

/**
 * What a bench run states about itself, so that every figure copied from it names the run it came
 * from: the machine (CPU, cores, memory, Node, PostgreSQL), the commit and whether the tree had
 * changes, when it started, and the load average before each scenario (other work on the machine
 * moves every figure).
 */
export type RunInfo = { startedAt: Date; commit: string; dirty: boolean; machine: string; postgres: string | null };

function git(args: string[]): string {
  try {
    return execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "";
  }
}

/** The PostgreSQL the run uses: the server's own answer when BENCH_DATABASE_URL names one, else the binaries scripts/ci/postgres.sh starts. */
async function postgresVersion(): Promise<string> {
  const url = process.env.BENCH_DATABASE_URL;
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return `PostgreSQL ${(await client.query<{ server_version: string }>("SHOW server_version")).rows[0].server_version}`;
    } finally {
      await client.end();
    }
  }
  try {
    const dirs = readdirSync("/usr/lib/postgresql").sort((a, b) => Number(a) - Number(b));
    return execFileSync(`/usr/lib/postgresql/${dirs[dirs.length - 1]}/bin/postgres`, ["--version"], { encoding: "utf8" }).trim();
  } catch {
    return "PostgreSQL (version unknown)";
  }
}

export async function describeRun(withPostgres: boolean): Promise<RunInfo> {
  const cpus = os.cpus();
  const machine = `${cpus[0]?.model.trim() ?? "unknown CPU"}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, ${os.type()} ${os.release()}, Node ${process.version}`;
  return {
    startedAt: new Date(),
    commit: git(["rev-parse", "--short=12", "HEAD"]) || "unknown",
    dirty: git(["status", "--porcelain"]) !== "",
    machine,
    postgres: withPostgres ? await postgresVersion() : null,
  };
}

/** The 1-, 5- and 15-minute load averages, e.g. "3.21 / 2.80 / 2.05". */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");
}

/** One line naming the run, to stand above every table of it: "run 2026-11-26 10:44 UTC, commit 8eda63a1c2d4 (uncommitted changes)". */
export function runName(run: RunInfo): string {
  const at = run.startedAt.toISOString().slice(0, 16).replace("T", " ");
  return `run ${at} UTC, commit ${run.commit}${run.dirty ? " (with uncommitted changes)" : ""}`;
}

export function printRunHeader(run: RunInfo) {
  console.log(`Bench ${runName(run)}`);
  console.log(`Machine: ${run.machine}${run.postgres ? `; ${run.postgres}` : ""}`);
  console.log(`Load average (1 / 5 / 15 min) at the start: ${loadAverage()}`);
}
