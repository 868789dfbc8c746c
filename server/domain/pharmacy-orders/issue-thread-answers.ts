import { database, Prisma, type Tx } from "@/server/db/client";

/**
 * "New answer": an admin's answer in an issue thread of a pharmacy order (a reply or a resolution,
 * which may also release the order back to the queue) waits to be read until a pharmacist opens the
 * order in the portal (docs/decisions/portals.md#say-what-it-means). One column on the pharmacy
 * order (unreadAnswerAt), per order and not per user: the pharmacy's team shares its queue. Raw
 * statements, so that updatedAt (the API's updated_at) does not move: an answer is no change of the
 * pharmacy order.
 */

/** An admin answered in a thread of the pharmacy order: the latest unread answer is now. */
export async function markAnswerUnread(tx: Tx, pharmacyOrderId: string): Promise<void> {
  await tx.$executeRaw`UPDATE "PharmacyOrder" SET "unreadAnswerAt" = clock_timestamp() WHERE "id" = ${pharmacyOrderId}`;
}

/**
 * A pharmacist opened the order and saw its answers up to `seenUnixSeconds` (the unreadAnswerAt the
 * page read, in the portals' Unix seconds): read. An answer that came after the page read the order
 * stays unread (its second is later; one in the very same second is taken as seen). False when
 * nothing was unread (or another pharmacist was quicker).
 */
export async function markAnswerRead(pharmacyIds: readonly string[], pharmacyOrderId: string, seenUnixSeconds: number): Promise<boolean> {
  if (pharmacyIds.length === 0) return false;
  const db = await database();
  const changed = await db.$executeRaw`
    UPDATE "PharmacyOrder" SET "unreadAnswerAt" = NULL
     WHERE "id" = ${pharmacyOrderId} AND "pharmacyId" IN (${Prisma.join([...pharmacyIds])})
       AND floor(extract(epoch FROM "unreadAnswerAt")) <= ${seenUnixSeconds}`;
  return changed > 0;
}

/**
 * The pharmacy orders of these pharmacies with an unread answer: how many, and the `limit` latest
 * answered (the home page links to them). Both read only those rows (the migration's partial index).
 */
export async function listUnreadAnswers(pharmacyIds: readonly string[], limit: number) {
  if (pharmacyIds.length === 0) return { count: 0, orders: [] };
  const db = await database();
  const scope = Prisma.sql`"pharmacyId" IN (${Prisma.join([...pharmacyIds])}) AND "unreadAnswerAt" IS NOT NULL`;
  const [[{ n }], orders] = await Promise.all([
    db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS "n" FROM "PharmacyOrder" WHERE ${scope}`,
    db.$queryRaw<{ id: string; name: string; unreadAnswerAt: Date }[]>`
      SELECT "id", "name", "unreadAnswerAt" FROM "PharmacyOrder" WHERE ${scope} ORDER BY "unreadAnswerAt" DESC, "id" LIMIT ${limit}`,
  ]);
  return { count: n, orders };
}
