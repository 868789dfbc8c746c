import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { config } from "@/server/config";
import { log } from "@/server/log";
import { lockEmbeddedDirectory } from "./embedded-lock";
import { DatabaseBusyError } from "./errors";
import { Prisma } from "./generated/client";

/**
 * The raw-SQL half of Prisma's transaction client ($queryRaw and $executeRaw, tagged templates or
 * Prisma.Sql). A domain function whose statements are all raw SQL takes it, so that it runs in
 * Prisma's transaction or in the driver's (Driver.transaction) alike.
 */
export type RawTx = Pick<Prisma.TransactionClient, "$queryRaw" | "$executeRaw">;

const RAW_TX = Symbol("raw transaction on the driver");

/** A transaction on the driver rather than Prisma's (which has the model API too). */
export function isDriverTx(tx: RawTx): boolean {
  return RAW_TX in tx;
}

/** The RawTx of a driver transaction: each statement sent as `run` sends it. */
function driverTx(run: (text: string, values: unknown[]) => Promise<{ rows: unknown[]; count: number }>): RawTx {
  const statement = (query: TemplateStringsArray | Prisma.Sql, values: unknown[]) =>
    query instanceof Prisma.Sql ? query : Prisma.sql(query, ...values);
  const tx = {
    [RAW_TX]: true,
    $queryRaw: async (query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => {
      const sql = statement(query, values);
      return (await run(sql.text, sql.values)).rows;
    },
    $executeRaw: async (query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) => {
      const sql = statement(query, values);
      return (await run(sql.text, sql.values)).count;
    },
  };
  return tx as unknown as RawTx;
}

/**
 * The raw database connection under Prisma: embedded PGlite (a directory under DATA_DIR, or in
 * memory for tests) or a PostgreSQL pool. Migrations, a few locking queries and the hottest read
 * statements use it directly; everything else goes through the Prisma client built on it
 * (server/db/client.ts).
 */
type DriverBase = {
  exec(sql: string): Promise<void>;
  /**
   * One parameterised statement straight to the database, for the statements of every request (API
   * keys, pharmacy order lists): the cheapest way to the database for this process, cheaper than
   * Prisma's $queryRaw and much cheaper than a model query, which the client engine compiles and
   * interprets every time (measured in the orders benchmark; figures in docs/benchmarks.md).
   *
   * - Outside any transaction only: on PGlite (one connection) a call made inside a Prisma
   *   transaction would wait for that transaction forever.
   * - `text` must be a fixed statement, values only as $n parameters: on PostgreSQL each distinct
   *   text becomes a named prepared statement on each pooled connection, parsed and planned once per
   *   connection (a pooler in transaction mode would need prepared-statement support for this).
   * - Values come as the driver parses them: select numbers as int4/float8 (int8 and numeric arrive
   *   as strings on pg) and times as epoch numbers or text, not as timestamps.
   */
  query<T>(text: string, values: unknown[]): Promise<T[]>;
  /**
   * A transaction on one connection: `fn`'s statements (RawTx: $queryRaw, $executeRaw), then COMMIT,
   * or ROLLBACK when it throws. For a command whose statements are all raw SQL and run on every
   * request (order intake): Prisma's interactive transaction costs the server's thread about 0.3 ms
   * a statement more, and as much again for the transaction itself. As with `query`, each distinct
   * text becomes a prepared statement per connection, so texts must be fixed (values as parameters).
   * Waits at most `maxWaitMs` for a connection (then DatabaseBusyError, a 503 at the REST kit).
   */
  transaction<T>(fn: (tx: RawTx) => Promise<T>, options?: { maxWaitMs?: number }): Promise<T>;
  close(): Promise<void>;
};
export type Driver = ({ kind: "pglite"; pglite: PGlite } | { kind: "postgres"; pool: pg.Pool }) & DriverBase;

/** A name per distinct statement text (pg prepares a named statement once per connection). */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `rx_${statementNames.size + 1}`));
  return name;
}

/**
 * PGlite that refuses statements once its close has been asked for. PGlite checks that it is open
 * before a query waits for its turn, not after: a query queued behind another while close() runs is
 * handed to the stopped backend, and PGlite's synchronous protocol loop then spins on it for ever at
 * 100 % CPU, blocking the event loop so that no timer fires (seen in the tests: a timed-out test's
 * work still querying while its file's database was closed). Such a query now fails instead.
 */
export class ClosablePGlite extends PGlite {
  #closeRequested = false;

  override execProtocolRawSync(message: Uint8Array): Uint8Array {
    // 88 ('X') is Terminate, which close() itself sends.
    if (this.#closeRequested && message[0] !== 88) throw new Error("The embedded database is closed.");
    return super.execProtocolRawSync(message);
  }

  override async close(): Promise<void> {
    this.#closeRequested = true;
    await super.close();
  }
}

// Tests only (tests/setup.ts): each test file's in-memory database starts from one dump of the
// migrated schema instead of migrating from nothing again (the dump is made by the same
// applyMigrations, in tests/template.ts, once per run).
let memoryTemplate: Blob | undefined;
export function useMemoryTemplate(dump: Blob): void {
  memoryTemplate = dump;
}

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
      query: async <T>(text: string, values: unknown[]) => (await pool.query({ name: statementName(text), text, values })).rows as T[],
      transaction: async (fn, { maxWaitMs = 30_000 } = {}) => {
        const client = await connectWithin(pool, maxWaitMs);
        try {
          await client.query("BEGIN");
          const result = await fn(
            driverTx(async (text, values) => {
              const r = await client.query({ name: statementName(text), text, values });
              return { rows: r.rows, count: r.rowCount ?? 0 };
            }),
          );
          await client.query("COMMIT");
          client.release();
          return result;
        } catch (error) {
          // A connection whose ROLLBACK fails is not given back to the pool.
          await client.query("ROLLBACK").then(
            () => client.release(),
            (rollbackError: Error) => client.release(rollbackError),
          );
          throw error;
        }
      },
      close: () => pool.end(),
    };
  }
  // pg_trgm backs the substring search of pharmacy orders (a trigram index), as on PostgreSQL.
  const extensions = { pg_trgm };
  let pglite: PGlite;
  let release = () => {};
  if (databaseUrl === "memory:") {
    pglite = new ClosablePGlite({ extensions, loadDataDir: memoryTemplate });
  } else {
    const dir = path.resolve(config().DATA_DIR, "pglite");
    mkdirSync(path.dirname(dir), { recursive: true });
    release = lockEmbeddedDirectory(dir);
    pglite = new ClosablePGlite(dir, { extensions });
  }
  return {
    kind: "pglite",
    pglite,
    exec: async (sql) => void (await pglite.exec(sql)),
    query: async <T>(text: string, values: unknown[]) => (await pglite.query<T>(text, values)).rows,
    transaction: (fn) =>
      pglite.transaction((t) =>
        fn(
          driverTx(async (text, values) => {
            const r = await t.query(text, values);
            return { rows: r.rows, count: r.affectedRows ?? 0 };
          }),
        ),
      ),
    close: () => pglite.close().finally(release),
  };
}

/** A pooled connection, or DatabaseBusyError after `maxWaitMs` (a connection that comes later goes back to the pool). */
async function connectWithin(pool: pg.Pool, maxWaitMs: number): Promise<pg.PoolClient> {
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const connecting = pool.connect();
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new DatabaseBusyError(maxWaitMs));
    }, maxWaitMs);
  });
  try {
    return await Promise.race([connecting, timeout]);
  } finally {
    clearTimeout(timer);
    if (timedOut) void connecting.then((client) => client.release(), () => undefined);
  }
}
