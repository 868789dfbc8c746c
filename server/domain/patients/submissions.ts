import { database, Prisma } from "@/server/db/client";
import { requirePatientOfOrganisation } from "./queries";
import { knownShopCustomerPatient, type ShopCustomerRef } from "./shop-customers";
import { SIGNED_PRESCRIPTION_STATUSES, storedSpellings } from "@/server/domain/prescriptions/statuses";

/**
 * A patient's signed submissions for an intent (G20): completed questionnaire responses with that
 * intent that led to a signed prescription (the anamnesis of one of its lines or of an order item
 * it covers). A submission stays valid for 12 months from the signature.
 */
export const SIGNED_SUBMISSION_VALID_MONTHS = 12;

export type SubmissionReturnCode = "VALID" | "EXPIRED" | "NOT_FOUND";

/** VALID when the newest signature is at most 12 calendar months old, EXPIRED when older, NOT_FOUND when there is none. */
export function submissionReturnCode(lastSignedAt: Date | null, now: Date = new Date()): SubmissionReturnCode {
  if (!lastSignedAt) return "NOT_FOUND";
  const validFrom = new Date(now);
  validFrom.setUTCMonth(validFrom.getUTCMonth() - SIGNED_SUBMISSION_VALID_MONTHS);
  return lastSignedAt >= validFrom ? "VALID" : "EXPIRED";
}

/**
 * When the newest prescription signed on a submission of the patient was signed, per intent that
 * has one: for one intent, or (null) for every intent of the patient in one statement.
 */
async function lastSignaturesByIntent(organisationId: string, patientId: string, intent: string | null): Promise<Map<string, Date>> {
  const db = await database();
  const rows = await db.$queryRaw<{ intent: string; signedAt: Date }[]>`
    SELECT r."intent", max(p."signedAt") AS "signedAt"
      FROM "QuestionnaireResponse" r
      JOIN (SELECT "anamnesisId", "prescriptionId" FROM "PrescriptionLine"
            UNION ALL
            SELECT "anamnesisId", "prescriptionId" FROM "OrderItem" WHERE "prescriptionId" IS NOT NULL) link ON link."anamnesisId" = r."id"
      JOIN "Prescription" p ON p."id" = link."prescriptionId"
     WHERE r."patientId" = ${patientId} AND r."status" = 'COMPLETED' AND r."intent" IS NOT NULL
       ${intent === null ? Prisma.empty : Prisma.sql`AND r."intent" = ${intent}`}
       AND p."organisationId" = ${organisationId} AND p."signedAt" IS NOT NULL AND p."deletedAt" IS NULL
       AND p."status" = ANY(${storedSpellings(SIGNED_PRESCRIPTION_STATUSES)}::text[])
     GROUP BY r."intent"`;
  return new Map(rows.map((row) => [row.intent, new Date(row.signedAt)]));
}

/** GET /v1/management/patients/{uid}/intent/{intent}: a patient of another organisation is not found. */
export async function patientIntentReturnCode(organisationId: string, patientId: string, intent: string): Promise<SubmissionReturnCode> {
  await requirePatientOfOrganisation(await database(), organisationId, patientId);
  return submissionReturnCode((await lastSignaturesByIntent(organisationId, patientId, intent)).get(intent) ?? null);
}

/** At most this many intents of one patient are listed, by name (integrators choose intents; a patient has a few). */
export const PATIENT_INTENTS_LISTED = 50;

/**
 * The admin tool's intent status: every intent the patient answered a questionnaire for (in progress
 * or completed), each with the Management API's return code for it. An intent the patient never
 * answered for is NOT_FOUND by the rule, so it is not listed. Another organisation's patient is not found.
 */
export async function patientIntentReturnCodes(organisationId: string, patientId: string): Promise<{ intent: string; returnCode: SubmissionReturnCode }[]> {
  const db = await database();
  await requirePatientOfOrganisation(db, organisationId, patientId);
  const answered = await db.questionnaireResponse.findMany({
    where: { patientId, intent: { not: null } },
    distinct: ["intent"],
    select: { intent: true },
    orderBy: { intent: "asc" },
    take: PATIENT_INTENTS_LISTED,
  });
  const signatures = await lastSignaturesByIntent(organisationId, patientId, null);
  return answered.map(({ intent }) => ({ intent: intent!, returnCode: submissionReturnCode(signatures.get(intent!) ?? null) }));
}

/** GET /api/v0/patient/intent: the same rule for a shop's customer; an unknown customer, or a shop outside the organisation, is not found. */
export async function shopCustomerIntentReturnCode(organisationId: string, customer: ShopCustomerRef, intent: string): Promise<SubmissionReturnCode> {
  const db = await database();
  const patientId = await knownShopCustomerPatient(db, organisationId, customer);
  return submissionReturnCode((await lastSignaturesByIntent(organisationId, patientId, intent)).get(intent) ?? null);
}
