import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { config } from "@/server/config";
import { log } from "@/server/log";

/**
 * The raw database connection under Prisma: embedded PGlite (a directory under DATA_DIR, or in
 * memory for tests) or a PostgreSQL pool. Migrations and a few locking queries use it directly;
 * everything else goes through the Prisma client built on it (server/db/client.ts).
 */
export type Driver =
  | { kind: "pglite"; pglite: PGlite; exec(sql: string): Promise<void>; close(): Promise<void> }
  | { kind: "postgres"; pool: pg.Pool; exec(sql: string): Promise<void>; close(): Promise<void> };

export function openDriver(databaseUrl = config().DATABASE_URL): Driver {
  if (databaseUrl && databaseUrl !== "memory:") {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    // An idle client's connection can drop (server restart, terminated backend, a database dropped
    // in tests just as the pool closes). pg emits that on the pool, and an 'error' event without a
    // listener throws: the pool already discards the client, so log it and go on.
    pool.on("error", (error) => log.warn("idle PostgreSQL connection closed by the server", { error }));
    return {
      kind: "postgres",
      pool,
      exec: async (sql) => void (await pool.query(sql)),
      close: () => pool.end(),
    };
  }
  // pg_trgm backs the substring search of pharmacy orders (a trigram index), as on PostgreSQL.
  const extensions = { pg_trgm };
  let pglite: PGlite;
  if (databaseUrl === "memory:") {
    pglite = new PGlite({ extensions });
  } else {
    const dir = path.resolve(config().DATA_DIR, "pglite");
    mkdirSync(path.dirname(dir), { recursive: true });
    pglite = new PGlite(dir, { extensions });
  }
  return {
    kind: "pglite",
    pglite,
    exec: async (sql) => void (await pglite.exec(sql)),
    close: () => pglite.close(),
  };
}
