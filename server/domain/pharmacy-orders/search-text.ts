import { Prisma, type RawTx } from "@/server/db/client";
import { escapeLike } from "@/server/domain/search";

/**
 * The pharmacy order list's `search` (issue 23 rule 7): a case-insensitive substring of the shop
 * order name, the pharmacy order name, the patient's name, the order uid or the pharmacy order uid,
 * each on its own and as the order shows it now. One trigram-indexed column per pharmacy order
 * holds the five parts (`searchText`): one index lookup per search, where a lookup per source
 * column with joins was ten times slower (docs/decisions/api.md#search).
 *
 * The parts are joined by U+001F (unit separator), which neither a part nor a term keeps, so a
 * `LIKE '%term%'` (wildcards escaped) never spans two parts. The text and the term are lower-cased
 * here, in JavaScript, so the match ignores case for every script whatever the database's locale
 * (a C-locale lower() folds ASCII only).
 *
 * Only the patient's name can change after creation (names and uids are fixed): every writer of
 * PatientProfile.displayName calls refreshSearchTextOfPatient in its transaction.
 */
const SEPARATOR = "\u001f";
const withoutSeparator = (text: string) => text.replaceAll(SEPARATOR, "");

type Sources = { shopOrderName: string; name: string; patientName: string; orderId: string; id: string };

/** The one builder of a pharmacy order's search text, for creation and every refresh. */
export function pharmacyOrderSearchText(s: Sources): string {
  return [s.shopOrderName, s.name, s.patientName, s.orderId, s.id].map(withoutSeparator).join(SEPARATOR).toLowerCase();
}

/** The LIKE pattern that finds `term` inside one part of a search text. */
export function searchTextPattern(term: string): string {
  return `%${escapeLike(withoutSeparator(term).toLowerCase())}%`;
}

/** The order-side parts (o: the order, pp: its patient, so: its shop order, if any). */
const ORDER_PARTS = Prisma.sql`coalesce(so."name", o."name") AS "shopOrderName", pp."displayName" AS "patientName"
  FROM "Order" o JOIN "PatientProfile" pp ON pp."id" = o."patientId" LEFT JOIN "ShopOrder" so ON so."orderId" = o."id"`;

/** The order-side parts of the search texts of an order's pharmacy orders. */
export type OrderSearchParts = { shopOrderName: string; patientName: string };

/**
 * The search text of a new pharmacy order of `orderId`. Reads the patient FOR SHARE: a concurrent
 * rename (an UPDATE of that row) then either commits first, and this reads the new name, or waits
 * for this transaction, and its refresh sees the new pharmacy order. `known`: the parts as the
 * caller read them earlier in this transaction, the patient's name under that same lock
 * (lockedPatientNameSql): no second read.
 */
export async function newPharmacyOrderSearchText(
  tx: RawTx,
  pharmacyOrder: { id: string; name: string; orderId: string },
  known?: OrderSearchParts,
): Promise<string> {
  if (known) return pharmacyOrderSearchText({ ...pharmacyOrder, ...known });
  const [parts] = await tx.$queryRaw<OrderSearchParts[]>`
    SELECT ${ORDER_PARTS} WHERE o."id" = ${pharmacyOrder.orderId} FOR SHARE OF pp`;
  if (!parts) throw new Error(`order ${pharmacyOrder.orderId} not found for its pharmacy order`);
  return pharmacyOrderSearchText({ ...pharmacyOrder, ...parts });
}

/**
 * The patient's name, read FOR SHARE as newPharmacyOrderSearchText reads it, for a statement that
 * writes something else at the same time (order intake writes the order with it): the name it
 * returns may go to newPharmacyOrderSearchText as known for the rest of the transaction.
 */
export function lockedPatientNameSql(patientId: string): Prisma.Sql {
  return Prisma.sql`SELECT "displayName" FROM "PatientProfile" WHERE "id" = ${patientId} FOR SHARE`;
}

/** Rewrites the search text of every pharmacy order of the patient: call it after the patient's name changed, in that transaction. */
export async function refreshSearchTextOfPatient(tx: RawTx, patientId: string): Promise<void> {
  const rows = await tx.$queryRaw<Sources[]>`
    SELECT po."id", po."name", po."orderId", ${ORDER_PARTS} JOIN "PharmacyOrder" po ON po."orderId" = o."id"
     WHERE o."patientId" = ${patientId}`;
  if (rows.length === 0) return;
  await tx.$executeRaw`
    UPDATE "PharmacyOrder" po SET "searchText" = v."text"
      FROM unnest(${rows.map((r) => r.id)}::text[], ${rows.map(pharmacyOrderSearchText)}::text[]) AS v("id", "text")
     WHERE po."id" = v."id"`;
}

/**
 * Rewrites the search texts of the patient's pharmacy orders under the lock new pharmacy orders
 * read the name with (lockedPatientNameSql): for a writer that learnt the name changed after it
 * wrote a search text (order intake's one statement).
 */
export async function refreshSearchTextUnderPatientLock(tx: RawTx, patientId: string): Promise<void> {
  await tx.$queryRaw`${lockedPatientNameSql(patientId)}`;
  await refreshSearchTextOfPatient(tx, patientId);
}
