import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import pg from "pg";

/**
 * A production server of a spec's own (the production entry, scripts/serve.ts, on the build the e2e
 * run made), for settings the
 * shared e2e server does not have: private webhook targets, short retry pauses, a kill mid-retry.
 * Its database is fresh: a PGlite directory under `dataDir`, or on PostgreSQL (when DATABASE_URL
 * is one) a database of its own next to the run's.
 */
export type OwnServer = { base: string; process: ChildProcess };

const root = path.resolve(import.meta.dirname, "..");

/** A fresh PostgreSQL database `<run's database>_<suffix>` when the run is on PostgreSQL; else undefined (PGlite). */
async function freshDatabaseUrl(suffix: string): Promise<string | undefined> {
  const url = process.env.DATABASE_URL?.trim();
  if (!url?.startsWith("postgres")) return undefined;
  const parsed = new URL(url);
  const name = `${decodeURIComponent(parsed.pathname.slice(1)) || "postgres"}_${suffix}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** The environment of such a server: production, silent, private webhook targets allowed, plus `extra`. */
export async function ownServerEnv(options: { port: number; dataDir: string; databaseSuffix: string; extra?: Record<string, string> }) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    DATA_DIR: options.dataDir,
    PORT: String(options.port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${options.port}`,
    NEXTAUTH_URL: "",
    LOG_LEVEL: "silent",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    ...options.extra,
  };
  const url = await freshDatabaseUrl(options.databaseSuffix);
  if (url) env.DATABASE_URL = url;
  else delete env.DATABASE_URL;
  return env;
}

/** Starts the server in its own process group (so a signal reaches its workers too) and waits until it answers. */
export async function startOwnServer(env: NodeJS.ProcessEnv): Promise<OwnServer> {
  const port = env.PORT!;
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts", "--no-build", "--hostname", "127.0.0.1", "--port", port], {
    cwd: root,
    env,
    stdio: "ignore",
    detached: true,
  });
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/`)).ok) return { base, process: child };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("server did not start");
}

/** Sends `signal` to the server's whole process group; a server already gone is fine. */
export function signalOwnServer(server: OwnServer | null, signal: NodeJS.Signals): void {
  if (!server?.process.pid) return;
  try {
    process.kill(-server.process.pid, signal);
  } catch {
    // already gone
  }
}
