import { randomUUID } from "node:crypto";
import { Prisma, type RawTx } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { refreshSearchTextOfPatient } from "@/server/domain/pharmacy-orders/search-text";

export type ShopCustomerPatient = { id: string; displayName: string; created: boolean };

/** What a new profile starts with, and what fills a known profile that has no name yet. */
export type PatientNames = { firstName?: string | null; lastName?: string | null };

/** A profile's display name: its names, space-separated (blank while no name is known). */
export const displayNameOf = (names: PatientNames): string =>
  [names.firstName, names.lastName].map((n) => n?.trim() ?? "").filter(Boolean).join(" ");

/**
 * The one place a shop's customer becomes a patient: order intake (customer.id) and
 * POST /v1/management/patients (shop_customer_id) both call it, so both reach the same profile.
 *
 * Concurrent first calls for one customer race on the (shop, shop customer id) unique index:
 * INSERT … ON CONFLICT DO NOTHING lets the loser read the winner's row instead of aborting its
 * transaction. One statement for a known customer and one for a new one (patient and customer
 * together); the race costs two more.
 *
 * A known customer keeps its profile, and only its gaps are filled (docs/decisions/telemedicine.md#doctors-and-patients):
 * the e-mail of the shop customer and of the profile when they have none, the names when the
 * profile has none (a profile created by POST /patients without name fields).
 */
export async function findOrCreateShopCustomer(
  tx: RawTx,
  organisationId: string,
  shopId: string,
  customer: { id: string; email?: string | null },
  names: PatientNames = {},
): Promise<ShopCustomerPatient> {
  const email = customer.email ?? null;
  const firstName = names.firstName ?? null;
  const lastName = names.lastName ?? null;
  const displayName = displayNameOf(names);
  const [existing] = await knownCustomer(tx, shopId, customer.id, email, { firstName, lastName, displayName });
  if (existing) return known(tx, existing);

  const patient = { id: randomUUID(), displayName };
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    WITH ${newShopCustomerWritesSql(patient, organisationId, shopId, customer, { firstName, lastName }, "or nothing")}
    SELECT "id" FROM "newCustomer"`;
  if (inserted.length > 0) return { ...patient, created: true };

  await tx.$executeRaw`DELETE FROM "PatientProfile" WHERE "id" = ${patient.id}`;
  const [winner] = await knownCustomer(tx, shopId, customer.id, email, { firstName, lastName, displayName });
  if (!winner) throw new Error(`shop customer ${customer.id} conflicted but cannot be read`);
  return known(tx, winner);
}

/** A known customer's patient; a name just filled in reaches its pharmacy orders' search text. */
async function known(tx: RawTx, patient: KnownCustomer): Promise<ShopCustomerPatient> {
  if (patient.named) await refreshSearchTextOfPatient(tx, patient.id);
  return { id: patient.id, displayName: patient.displayName, created: false };
}

/** named: this call filled the profile's blank name. */
type KnownCustomer = { id: string; displayName: string; named: boolean };

/**
 * The known customer's patient, filling its gaps in the same statement. The updates touch (and
 * lock) a row only when there is a gap to fill, so repeated orders of one customer do not queue.
 */
function knownCustomer(
  tx: RawTx,
  shopId: string,
  shopCustomerId: string,
  email: string | null,
  names: { firstName: string | null; lastName: string | null; displayName: string },
): Promise<KnownCustomer[]> {
  return tx.$queryRaw`
    WITH target AS (
      SELECT c."id", c."patientId" FROM "ShopCustomer" c WHERE c."shopId" = ${shopId} AND c."shopCustomerId" = ${shopCustomerId}),
    customer_email AS (
      UPDATE "ShopCustomer" c SET "email" = ${email}::text
        FROM target t WHERE c."id" = t."id" AND ${customerEmailGapSql(Prisma.sql`c`, email)}
      RETURNING c."id"),
    filled AS (
      UPDATE "PatientProfile" p
         SET "email" = coalesce(p."email", ${email}::text),
             "firstName" = CASE WHEN p."displayName" = '' THEN ${names.firstName}::text ELSE p."firstName" END,
             "lastName" = CASE WHEN p."displayName" = '' THEN ${names.lastName}::text ELSE p."lastName" END,
             "displayName" = CASE WHEN p."displayName" = '' THEN ${names.displayName}::text ELSE p."displayName" END,
             "updatedAt" = now()
        FROM target t
       WHERE p."id" = t."patientId"
         AND ${profileGapSql(Prisma.sql`p`, email, names.displayName)}
      RETURNING p."id", p."displayName")
    SELECT t."patientId" AS "id", coalesce(f."displayName", p."displayName") AS "displayName",
           (p."displayName" = '' AND coalesce(f."displayName", '') <> '') AS "named"
      FROM target t JOIN "PatientProfile" p ON p."id" = t."patientId" LEFT JOIN filled f ON f."id" = t."patientId"`;
}

/** A shop customer (alias `c`) without an e-mail that this call would give it. */
const customerEmailGapSql = (c: Prisma.Sql, email: string | null) => Prisma.sql`(${c}."email" IS NULL AND ${email}::text IS NOT NULL)`;

/** A profile (alias `p`) without the e-mail or the name this call would give it. */
const profileGapSql = (p: Prisma.Sql, email: string | null, displayName: string) =>
  Prisma.sql`((${p}."email" IS NULL AND ${email}::text IS NOT NULL) OR (${p}."displayName" = '' AND ${displayName}::text <> ''))`;

/**
 * A known customer as order intake reads it before it writes (JSON, or null when the customer is
 * new): its patient, the patient's name, and whether findOrCreateShopCustomer would fill a gap of
 * it (`complete` false), which intake then leaves to it.
 */
export function knownCustomerLookupSql(shopId: Prisma.Sql, customer: { id: string; email?: string | null }, names: PatientNames): Prisma.Sql {
  const email = customer.email ?? null;
  return Prisma.sql`
    SELECT json_build_object('patientId', c."patientId", 'displayName', p."displayName",
                             'complete', NOT (${customerEmailGapSql(Prisma.sql`c`, email)} OR ${profileGapSql(Prisma.sql`p`, email, displayNameOf(names))}))
      FROM "ShopCustomer" c JOIN "PatientProfile" p ON p."id" = c."patientId"
     WHERE c."shopId" = ${shopId} AND c."shopCustomerId" = ${customer.id}`;
}

/**
 * A new customer's profile and shop customer, as CTEs "newPatient" and "newCustomer" (RETURNING
 * "id"). "or nothing": a customer created meanwhile wins, and "newCustomer" returns no row;
 * "or fail": the statement fails on the unique index instead.
 */
export function newShopCustomerWritesSql(
  patient: { id: string; displayName: string },
  organisationId: string,
  shopId: string,
  customer: { id: string; email?: string | null },
  names: PatientNames,
  conflict: "or nothing" | "or fail",
): Prisma.Sql {
  const email = customer.email ?? null;
  return Prisma.sql`
    "newPatient" AS (
      INSERT INTO "PatientProfile" ("id", "organisationId", "displayName", "firstName", "lastName", "email", "updatedAt")
      VALUES (${patient.id}, ${organisationId}, ${patient.displayName}, ${names.firstName ?? null}, ${names.lastName ?? null}, ${email}, now())
      RETURNING "id"),
    "newCustomer" AS (
      INSERT INTO "ShopCustomer" ("id", "shopId", "shopCustomerId", "patientId", "email", "createdAt")
      SELECT ${randomUUID()}, ${shopId}, ${customer.id}, "newPatient"."id", ${email}, now() FROM "newPatient"
      ${conflict === "or nothing" ? Prisma.sql`ON CONFLICT ("shopId", "shopCustomerId") DO NOTHING` : Prisma.empty}
      RETURNING "id")`;
}

/** A customer of a shop, as the patient-data endpoints name it. */
export type ShopCustomerRef = { shopIdentifier: string; shopCustomerId: string };

/**
 * The patient of a known customer of the organisation's shop. An unknown customer, a customer of
 * another shop, an unknown shop and a shop of another organisation are all not found.
 */
export async function knownShopCustomerPatient(tx: RawTx, organisationId: string, customer: ShopCustomerRef): Promise<string> {
  const [row] = await tx.$queryRaw<{ patientId: string }[]>`
    SELECT c."patientId" FROM "ShopCustomer" c JOIN "Shop" s ON s."id" = c."shopId"
     WHERE s."identifier" = ${customer.shopIdentifier} AND s."organisationId" = ${organisationId} AND c."shopCustomerId" = ${customer.shopCustomerId}`;
  if (!row) throw new NotFoundError();
  return row.patientId;
}
