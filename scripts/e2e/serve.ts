/**
 * The web server of the Playwright run (playwright.config.ts → webServer.command):
 *  1. wipes the e2e DATA_DIR, so the server starts on an empty embedded database and the seed
 *     writes a fresh DATA_DIR/demo.json;
 *  2. when DATABASE_URL names a PostgreSQL server, recreates a database of its own beside it
 *     (`<name>_e2e`) and points the server there: the seed only runs on an empty database, and
 *     the integration tests may have left rows in the one they share;
 *  3. builds the production bundle when it is missing or stale (the production entry's check;
 *     E2E_SKIP_BUILD=1 skips even that);
 *  4. runs the production entry (scripts/serve.ts, as `npm run serve`) in the foreground until
 *     Playwright stops it.
 */
import { spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { buildIsCurrent } from "../serve/plan";
import { e2eDatabaseUrl } from "./database-url";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = path.resolve(root, process.env.DATA_DIR ?? ".data/e2e");
const port = process.env.PORT ?? "3100";
const host = process.env.E2E_HOST ?? "127.0.0.1";

function fail(message: string): never {
  console.error(`[e2e server] ${message}`);
  process.exit(1);
}

async function freshPostgresDatabase(url: string): Promise<string> {
  let e2eUrl: string;
  try {
    e2eUrl = e2eDatabaseUrl(url);
  } catch (error) {
    fail((error as Error).message);
  }
  const name = new URL(e2eUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  return e2eUrl;
}

async function main() {
  if (!dataDir.startsWith(path.join(root, ".data") + path.sep) && process.env.E2E_ALLOW_ANY_DATA_DIR !== "1") {
    fail(`refusing to wipe DATA_DIR=${dataDir} outside ${path.join(root, ".data")}`);
  }
  rmSync(dataDir, { recursive: true, force: true });

  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: port };
  env.PUBLIC_BASE_URL ??= `http://${host}:${port}`;
  const databaseUrl = process.env.DATABASE_URL?.trim();
  if (databaseUrl && databaseUrl !== "memory:") {
    env.DATABASE_URL = await freshPostgresDatabase(databaseUrl);
    console.log(`[e2e server] PostgreSQL database ${new URL(env.DATABASE_URL).pathname.slice(1)} recreated`);
  }

  if (process.env.E2E_SKIP_BUILD !== "1" && !buildIsCurrent(root)) {
    const build = spawnSync(process.execPath, ["--import", "tsx", "scripts/serve.ts", "--build"], { cwd: root, env, stdio: "inherit" });
    if (build.status !== 0) fail(`next build failed (exit ${build.status ?? build.signal})`);
  }

  const entry = ["--import", "tsx", "scripts/serve.ts", "--no-build", "--hostname", host, "--port", port];
  const server = spawn(process.execPath, entry, { cwd: root, env, stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main().catch((error: unknown) => fail(error instanceof Error ? (error.stack ?? error.message) : String(error)));
