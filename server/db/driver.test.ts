import { describe, expect, it } from "vitest";
import { database, databaseDriver, Prisma, prismaTx } from "./client";
import { openDriver } from "./driver";
import { DatabaseBusyError, isDatabaseBusy, isUniqueViolation } from "./errors";

it("fails the queries still queued when the embedded database closes, instead of spinning for ever", async () => {
  const driver = openDriver("memory:");
  if (driver.kind !== "pglite") throw new Error("expected the embedded database");
  await driver.exec("SELECT 1");
  // Queued behind one another on PGlite's lock, then close() while they wait: plain PGlite hands the
  // waiting ones to the stopped backend and blocks this process at 100 % CPU (the test watchdog ends it).
  const results = await Promise.allSettled([driver.query("SELECT 1 AS n", []), driver.query("SELECT 2 AS n", []), driver.query("SELECT 3 AS n", []), driver.close()]);
  expect(results.map((r) => r.status)).toContain("rejected");
  for (const result of results.slice(0, 3)) {
    if (result.status === "rejected") expect(String(result.reason)).toMatch(/closed/);
  }
  expect(results[3].status).toBe("fulfilled");
  await expect(driver.query("SELECT 4", [])).rejects.toThrow();
});

describe("transactions on the driver", () => {
  const onPostgres = process.env.DATABASE_URL?.startsWith("postgres") ?? false;

  it("commit their raw statements as a whole, or roll them all back when their function throws", async () => {
    const driver = await databaseDriver();
    await driver.exec(`CREATE TABLE "DriverTxProbe" ("id" text PRIMARY KEY, "n" int NOT NULL)`);
    const inside = await driver.transaction(async (tx) => {
      expect(await tx.$executeRaw`INSERT INTO "DriverTxProbe" ("id", "n") VALUES (${"a"}, ${1}::int), (${"b"}, ${2}::int)`).toBe(2);
      return tx.$queryRaw<{ id: string; n: number }[]>(Prisma.sql`SELECT "id", "n" FROM "DriverTxProbe" WHERE "id" = ANY(${["a", "b"]}::text[]) ORDER BY "id"`);
    });
    expect(inside).toEqual([{ id: "a", n: 1 }, { id: "b", n: 2 }]);

    const failed = await driver
      .transaction(async (tx) => {
        await tx.$executeRaw`INSERT INTO "DriverTxProbe" ("id", "n") VALUES (${"c"}, ${3}::int)`;
        await tx.$executeRaw`INSERT INTO "DriverTxProbe" ("id", "n") VALUES (${"a"}, ${4}::int)`;
      })
      .catch((error: unknown) => error);
    expect(isUniqueViolation(failed)).toBe(true);
    expect(await driver.query<{ id: string }>(`SELECT "id" FROM "DriverTxProbe" ORDER BY "id"`, [])).toEqual([{ id: "a" }, { id: "b" }]);
    // The connection went back to the pool in a usable state.
    expect(await driver.transaction((tx) => tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS "n" FROM "DriverTxProbe"`)).toEqual([{ n: 2 }]);
  });

  it("refuse a Prisma model call: only raw SQL runs on them", async () => {
    const driver = await databaseDriver();
    await expect(driver.transaction(async (tx) => prismaTx(tx).organisation.count())).rejects.toThrow(/model call inside a raw-SQL transaction/);
    const db = await database();
    await expect(db.$transaction(async (tx) => prismaTx(tx).organisation.count())).resolves.toBeTypeOf("number");
  });

  it.skipIf(!onPostgres)("wait at most maxWaitMs for a connection, then refuse as busy", async () => {
    const driver = await databaseDriver();
    if (driver.kind !== "postgres") throw new Error("expected PostgreSQL");
    const held = await Promise.all(Array.from({ length: driver.pool.options.max ?? 10 }, () => driver.pool.connect()));
    try {
      const refused = await driver.transaction(async () => 1, { maxWaitMs: 50 }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DatabaseBusyError);
      expect(isDatabaseBusy(refused)).toBe(true);
    } finally {
      for (const client of held) client.release();
    }
    expect(await driver.transaction(async () => 1, { maxWaitMs: 5_000 })).toBe(1);
  });
});
