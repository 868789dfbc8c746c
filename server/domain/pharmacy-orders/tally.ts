import { database, databaseDriver, Prisma, type Tx, type Db } from "@/server/db/client";

/**
 * Exact counts of a pharmacy's orders (optionally of one status) from the tally that a trigger on
 * PharmacyOrder keeps (see PharmacyOrderTally in prisma/schema.prisma): a sum over a few rows
 * instead of counting up to hundreds of thousands of index entries on every list request.
 */
export async function countPharmacyOrders(db: Db | Tx, pharmacyId: string, status?: string): Promise<number> {
  const [{ total }] = await db.$queryRaw<{ total: number }[]>`${pharmacyOrderTallySql([pharmacyId], status)}`;
  return total;
}

/** `"pharmacyId"` of one of `pharmacyIds` (at least one): `=` for one, as the REST list always asks. */
export function pharmacyIdCondition(pharmacyIds: readonly string[]): Prisma.Sql {
  return pharmacyIds.length === 1 ? Prisma.sql`"pharmacyId" = ${pharmacyIds[0]}` : Prisma.sql`"pharmacyId" IN (${Prisma.join(pharmacyIds)})`;
}

/** The statement of countPharmacyOrders over one or more pharmacies (one int4 column, "total"), to embed in another. */
export function pharmacyOrderTallySql(pharmacyIds: readonly string[], status?: string): Prisma.Sql {
  return Prisma.sql`SELECT coalesce(sum("delta"), 0)::int AS "total" FROM "PharmacyOrderTally"
    WHERE ${pharmacyIdCondition(pharmacyIds)} ${status ? Prisma.sql`AND "status" = ${status}` : Prisma.empty}`;
}

/**
 * The orders of `pharmacyIds` per status (statuses without orders are absent), summed over the
 * pharmacies from the tally: the portal queue's tabs and its home page.
 */
export async function countPharmacyOrdersByStatus(pharmacyIds: readonly string[]): Promise<Record<string, number>> {
  if (pharmacyIds.length === 0) return {};
  const statement = pharmacyOrderStatusCountsSql(pharmacyIds);
  const driver = await databaseDriver();
  const [{ counts }] = await driver.query<{ counts: Record<string, number> }>(`SELECT (${statement.text}) AS "counts"`, statement.values);
  return counts;
}

/** The statement of countPharmacyOrdersByStatus (at least one pharmacy): one json object, status → count, to embed in another. */
export function pharmacyOrderStatusCountsSql(pharmacyIds: readonly string[]): Prisma.Sql {
  return Prisma.sql`SELECT coalesce(json_object_agg(t."status", t."total"), '{}'::json) FROM (
      SELECT "status", sum("delta")::int AS "total" FROM "PharmacyOrderTally"
       WHERE ${pharmacyIdCondition(pharmacyIds)} GROUP BY "status" HAVING sum("delta") <> 0) t`;
}

/**
 * Folds the tally's deltas into one row per (pharmacy, status). One statement: rows committed
 * meanwhile by other transactions are not in its snapshot and stay for the next run, and a
 * concurrent count sees the tally before or after, never half-way.
 */
export async function compactPharmacyOrderTally(): Promise<number> {
  const db = await database();
  return db.$executeRaw`
    WITH moved AS (DELETE FROM "PharmacyOrderTally" RETURNING "pharmacyId", "status", "delta")
    INSERT INTO "PharmacyOrderTally" ("pharmacyId", "status", "delta")
    SELECT "pharmacyId", "status", sum("delta") FROM moved GROUP BY "pharmacyId", "status" HAVING sum("delta") <> 0`;
}
