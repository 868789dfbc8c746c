import { database, Prisma, type Tx, type Db } from "@/server/db/client";

/**
 * Exact counts of a pharmacy's orders (optionally of one status) from the tally that a trigger on
 * PharmacyOrder keeps (see PharmacyOrderTally in prisma/schema.prisma): a sum over a few rows
 * instead of counting up to hundreds of thousands of index entries on every list request.
 */
export async function countPharmacyOrders(db: Db | Tx, pharmacyId: string, status?: string): Promise<number> {
  const [{ total }] = await db.$queryRaw<{ total: number }[]>`${pharmacyOrderTallySql(pharmacyId, status)}`;
  return total;
}

/** The statement of countPharmacyOrders (one int4 column, "total"), to embed in another. */
export function pharmacyOrderTallySql(pharmacyId: string, status?: string): Prisma.Sql {
  return Prisma.sql`SELECT coalesce(sum("delta"), 0)::int AS "total" FROM "PharmacyOrderTally"
    WHERE "pharmacyId" = ${pharmacyId} ${status ? Prisma.sql`AND "status" = ${status}` : Prisma.empty}`;
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
