import { createHash } from "node:crypto";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import type { Driver } from "./driver";

// Read from the project at run time; turbopackIgnore keeps the bundler from tracing the whole tree.
export const migrationsDir = path.resolve(/*turbopackIgnore: true*/ process.cwd(), "prisma", "migrations");
/** The schema as of the last migration (npm run db:diff diffs against it and moves it on). */
export const schemaSnapshot = path.join(migrationsDir, "schema.snapshot.prisma");

type Migration = { name: string; sql: string; checksum: string };

export function readMigrations(dir = migrationsDir): Migration[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

// Arbitrary constant: serialises concurrent migrators (several server processes on one PostgreSQL).
const MIGRATION_LOCK_ID = 7_240_219_001;

/**
 * Applies pending migrations, each in its own transaction, and records them with a checksum.
 * A changed checksum of an applied migration stops start-up: migrations are append-only.
 */
export async function applyMigrations(driver: Driver, migrations = readMigrations()): Promise<string[]> {
  const applied: string[] = [];
  await driver.exec(`CREATE TABLE IF NOT EXISTS "_app_migrations" (
    name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);

  const run = async (query: (sql: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>) => {
    for (const m of migrations) {
      await query("BEGIN");
      try {
        if (driver.kind === "postgres") await query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_ID]);
        const { rows } = await query(`SELECT checksum FROM "_app_migrations" WHERE name = $1`, [m.name]);
        if (rows.length > 0) {
          if (rows[0].checksum !== m.checksum) {
            throw new Error(`Migration ${m.name} was changed after it was applied (checksum mismatch)`);
          }
          await query("COMMIT");
          continue;
        }
        await execMulti(m.sql);
        await query(`INSERT INTO "_app_migrations" (name, checksum) VALUES ($1, $2)`, [m.name, m.checksum]);
        await query("COMMIT");
        applied.push(m.name);
      } catch (error) {
        await query("ROLLBACK");
        throw error;
      }
    }
  };

  let execMulti: (sql: string) => Promise<void>;
  if (driver.kind === "postgres") {
    const client = await driver.pool.connect();
    try {
      execMulti = async (sql) => void (await client.query(sql));
      await run((sql, params) => client.query(sql, params));
    } finally {
      client.release();
    }
  } else {
    execMulti = async (sql) => void (await driver.pglite.exec(sql));
    await run(async (sql, params) => driver.pglite.query(sql, params));
  }
  return applied;
}
