import { database, databaseDriver, Prisma } from "@/server/db/client";

/**
 * Exact numbers of an organisation's orders from the tally a trigger on Order keeps (OrderTally in
 * prisma/schema.prisma), optionally of one status and hold: a sum over a few rows instead of a count
 * of every order on each list request (the admin order list's total, the admin home's counts).
 */
export async function countOrdersFromTally(organisationId: string, filter: { status?: string; onHold?: boolean } = {}): Promise<number> {
  const statement = Prisma.sql`
    SELECT coalesce(sum("delta"), 0)::int AS "total" FROM "OrderTally"
     WHERE "organisationId" = ${organisationId}
       ${filter.status !== undefined ? Prisma.sql`AND "status" = ${filter.status}` : Prisma.empty}
       ${filter.onHold !== undefined ? Prisma.sql`AND "onHold" = ${filter.onHold}` : Prisma.empty}`;
  const [{ total }] = await (await databaseDriver()).query<{ total: number }>(statement.text, statement.values);
  return total;
}

/** Folds the order tally's deltas into one row per (organisation, status, hold), in one statement (as compactPharmacyOrderTally). */
export async function compactOrderTally(): Promise<number> {
  const db = await database();
  return db.$executeRaw`
    WITH moved AS (DELETE FROM "OrderTally" RETURNING "organisationId", "status", "onHold", "delta")
    INSERT INTO "OrderTally" ("organisationId", "status", "onHold", "delta")
    SELECT "organisationId", "status", "onHold", sum("delta") FROM moved GROUP BY "organisationId", "status", "onHold" HAVING sum("delta") <> 0`;
}
