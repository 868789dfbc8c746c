/**
 * Per test file: a fresh database. Without DATABASE_URL an in-memory PGlite; with a postgres://
 * DATABASE_URL a new database on that server, dropped afterwards. Either way it is a copy of the
 * schema the application's own migrations built once for the run (tests/template.ts); the
 * application then finds every migration applied, exactly as at a restart.
 *
 * With RX_TEST_DATABASE_USE naming a file (npm run test:ci, scripts/ci/test.ts), each PGlite test
 * file appends whether it used a database: the second database pass runs only those that did.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { reloadConfig } from "@/server/config";
import { closeDatabase } from "@/server/db/client";
import { useMemoryTemplate } from "@/server/db/driver";

// The server as the run was given it: each file points DATABASE_URL at its own database, and the
// worker's next file (isolate: false, vitest.config.ts) runs this module again in the same process.
process.env.RX_TEST_SERVER_URL ??= process.env.DATABASE_URL ?? "";
const serverUrl = process.env.RX_TEST_SERVER_URL.startsWith("postgres") ? process.env.RX_TEST_SERVER_URL : undefined;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "rx-test-"));
const databaseName = `rx_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;

process.env.DATA_DIR = dataDir;
process.env.LOG_LEVEL ??= "silent";
process.env.RATE_LIMIT_PER_SECOND = "1000000";
process.env.TRPC_RATE_LIMIT_PER_SECOND = "1000000";
process.env.SEED_ON_START = "false";

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

let testFile = "";
let usedDatabase = false;

/** The template dump, noting when a database of this file loads it (PGlite reads it once per database opened). */
class NotingBlob extends Blob {
  override arrayBuffer() {
    usedDatabase = true;
    return super.arrayBuffer();
  }
  override stream() {
    usedDatabase = true;
    return super.stream();
  }
  override bytes() {
    usedDatabase = true;
    return super.bytes();
  }
}

beforeAll(async ({}, file) => {
  testFile = file && "filepath" in file ? String(file.filepath) : "";
  if (serverUrl) {
    const template = inject("postgresTemplate");
    await admin((c) => c.query(`CREATE DATABASE "${databaseName}"${template ? ` TEMPLATE "${template}"` : ""}`));
    const url = new URL(serverUrl);
    url.pathname = `/${databaseName}`;
    process.env.DATABASE_URL = url.toString();
  } else {
    const template = inject("pgliteTemplate");
    if (template) useMemoryTemplate(new NotingBlob([readFileSync(template)]));
    process.env.DATABASE_URL = "memory:";
  }
  reloadConfig();
});

/**
 * DROP … WITH (FORCE) ends the test's own leftover connections, but may not end an autovacuum
 * worker that happens to be in the database (42501 without pg_signal_backend): such a worker ends by
 * itself within moments, so the drop is tried again.
 */
async function dropTestDatabase(): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await admin((c) => c.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`));
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "42501" || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

afterAll(async () => {
  await closeDatabase();
  const useLog = process.env.RX_TEST_DATABASE_USE;
  if (useLog && !serverUrl && testFile) {
    // A file that starts processes of its own may use a database in them: counted as using one.
    const startsProcesses = readFileSync(testFile, "utf8").includes("node:child_process");
    appendFileSync(useLog, `${path.relative(process.cwd(), testFile)}\t${usedDatabase || startsProcesses ? "database" : "none"}\n`);
  }
  if (serverUrl) await dropTestDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});
