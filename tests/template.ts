/**
 * Vitest global setup: the schema is migrated once per run, and every test file's database is a
 * copy of it (tests/setup.ts) instead of running every migration again (about 4 s a file on PGlite).
 * The copy is made by the application's own applyMigrations, so start-up migration stays what is
 * tested; server/db/migrate.test.ts covers migrating further.
 *  - PGlite: a dump of the migrated in-memory data directory, loaded by each file (loadDataDir).
 *  - PostgreSQL: a template database, copied by `CREATE DATABASE … TEMPLATE` per file.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDriver, type Driver } from "@/server/db/driver";
import { applyMigrations } from "@/server/db/migrate";

declare module "vitest" {
  export interface ProvidedContext {
    /** PGlite: the file holding the migrated data directory's dump. */
    pgliteTemplate?: string;
    /** PostgreSQL: the migrated database to copy. */
    postgresTemplate?: string;
  }
}

const serverUrl = process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : undefined;

async function onServer(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

async function migrated(url: string, work: (driver: Driver) => Promise<void> = async () => {}): Promise<void> {
  const driver = openDriver(url);
  try {
    await applyMigrations(driver);
    await work(driver);
  } finally {
    await driver.close();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  process.env.LOG_LEVEL ??= "silent";
  if (serverUrl) {
    const name = `rx_template_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    await onServer((c) => c.query(`CREATE DATABASE "${name}"`));
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    await migrated(url.toString());
    project.provide("postgresTemplate", name);
    return () => onServer((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "rx-test-template-"));
  const file = path.join(dir, "pglite.tar");
  await migrated("memory:", async (driver) => {
    if (driver.kind !== "pglite") throw new Error("expected the embedded database");
    writeFileSync(file, Buffer.from(await (await driver.pglite.dumpDataDir("none")).arrayBuffer()));
  });
  project.provide("pgliteTemplate", file);
  return async () => rmSync(dir, { recursive: true, force: true });
}
