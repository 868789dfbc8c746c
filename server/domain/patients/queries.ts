import { database, type Db, type Prisma, type Tx } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { containsInsensitive } from "@/server/domain/search";

const profileGraph = {
  shopCustomers: { include: { shop: { select: { identifier: true } } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
  properties: { include: { field: { select: { key: true, displayName: true } } }, orderBy: { field: { key: "asc" } } },
} satisfies Prisma.PatientProfileInclude;

export type PatientProfileDetail = Prisma.PatientProfileGetPayload<{ include: typeof profileGraph }>;

/** A patient profile of the organisation with its shop links and profile field values. */
export async function getPatientProfile(organisationId: string, patientId: string): Promise<PatientProfileDetail> {
  const db = await database();
  const profile = await db.patientProfile.findFirst({ where: { id: patientId, organisationId }, include: profileGraph });
  if (!profile) throw new NotFoundError();
  return profile;
}

/** Throws NotFoundError unless the patient is one of the organisation's (another organisation's is nothing to the caller). */
export async function requirePatientOfOrganisation(db: Db | Tx, organisationId: string, patientId: string): Promise<void> {
  const patient = await db.patientProfile.findFirst({ where: { id: patientId, organisationId }, select: { id: true } });
  if (!patient) throw new NotFoundError();
}

/**
 * The organisation's patients known by this e-mail address, compared without case (G20): the
 * profile's own address, a shop customer's, or an order's customer e-mail; newest first.
 */
async function patientIdsByEmail(organisationId: string, email: string, limit: number): Promise<string[]> {
  const db = await database();
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT p."id" FROM "PatientProfile" p
     WHERE p."organisationId" = ${organisationId}
       AND p."id" IN (
         SELECT "id" FROM "PatientProfile" WHERE "organisationId" = ${organisationId} AND lower("email") = lower(${email})
         UNION ALL
         SELECT "patientId" FROM "ShopCustomer" WHERE lower("email") = lower(${email})
         UNION ALL
         SELECT "patientId" FROM "Order" WHERE "organisationId" = ${organisationId} AND lower("customerEmail") = lower(${email}))
     ORDER BY p."createdAt" DESC, p."id" DESC
     LIMIT ${limit}`;
  return rows.map((r) => r.id);
}

/** The most recently created patient of the organisation known by this e-mail address (GET /patients?email=). */
export async function findPatientByEmail(organisationId: string, email: string): Promise<PatientProfileDetail> {
  const [id] = await patientIdsByEmail(organisationId, email, 1);
  if (!id) throw new NotFoundError();
  return getPatientProfile(organisationId, id);
}

/** At most this many patients answer one e-mail search of the admin tool (one address is rarely more than a family's). */
export const PATIENT_SEARCH_LIMIT = 50;

export type PatientSummary = Prisma.PatientProfileGetPayload<{
  select: { id: true; displayName: true; email: true; dateOfBirth: true; createdAt: true; shopCustomers: { select: { shopCustomerId: true; shop: { select: { identifier: true } } } } };
}>;

/**
 * Every patient of the organisation the e-mail search of the Management API could answer (the same
 * match), newest first, so that an admin sees all profiles one address reaches, not only the newest.
 */
export async function findPatientsByEmail(organisationId: string, email: string): Promise<PatientSummary[]> {
  const ids = await patientIdsByEmail(organisationId, email, PATIENT_SEARCH_LIMIT);
  if (ids.length === 0) return [];
  const db = await database();
  return db.patientProfile.findMany({
    where: { id: { in: ids }, organisationId },
    select: {
      id: true,
      displayName: true,
      email: true,
      dateOfBirth: true,
      createdAt: true,
      shopCustomers: { select: { shopCustomerId: true, shop: { select: { identifier: true } } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
}

/** How many patients a search offers at most: a picker, not a list to page through. */
export const PATIENT_CHOICES_MAX = 20;

/**
 * The organisation's patients matching `search` (without case: a part of the name, of the profile's
 * e-mail or of a shop customer's e-mail, or the exact uid), by name; without a search the first by
 * name. The appointment form's patient picker.
 */
export async function searchPatients(organisationId: string, search?: string) {
  const term = search?.trim();
  const db = await database();
  return db.patientProfile.findMany({
    where: {
      organisationId,
      ...(term
        ? {
            OR: [
              { displayName: containsInsensitive(term) },
              { email: containsInsensitive(term) },
              { shopCustomers: { some: { email: containsInsensitive(term) } } },
              { id: term },
            ],
          }
        : {}),
    },
    orderBy: [{ displayName: "asc" }, { id: "asc" }],
    take: PATIENT_CHOICES_MAX,
    select: { id: true, displayName: true, firstName: true, lastName: true, email: true, dateOfBirth: true },
  });
}
