import { database } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
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

/** When the newest prescription signed on a submission of the patient for this intent was signed; null when none was. */
export async function lastSignedSubmission(organisationId: string, patientId: string, intent: string): Promise<Date | null> {
  const db = await database();
  const [row] = await db.$queryRaw<{ signedAt: Date | null }[]>`
    SELECT max(p."signedAt") AS "signedAt" FROM "Prescription" p
     WHERE p."organisationId" = ${organisationId} AND p."signedAt" IS NOT NULL AND p."deletedAt" IS NULL
       AND p."status" = ANY(${storedSpellings(SIGNED_PRESCRIPTION_STATUSES)}::text[])
       AND p."id" IN (
         SELECT l."prescriptionId" FROM "PrescriptionLine" l JOIN "QuestionnaireResponse" r ON r."id" = l."anamnesisId"
          WHERE r."patientId" = ${patientId} AND r."status" = 'COMPLETED' AND r."intent" = ${intent}
         UNION ALL
         SELECT i."prescriptionId" FROM "OrderItem" i JOIN "QuestionnaireResponse" r ON r."id" = i."anamnesisId"
          WHERE r."patientId" = ${patientId} AND r."status" = 'COMPLETED' AND r."intent" = ${intent} AND i."prescriptionId" IS NOT NULL)`;
  return row?.signedAt ? new Date(row.signedAt) : null;
}

/** GET /v1/management/patients/{uid}/intent/{intent}: a patient of another organisation is not found. */
export async function patientIntentReturnCode(organisationId: string, patientId: string, intent: string): Promise<SubmissionReturnCode> {
  const db = await database();
  const patient = await db.patientProfile.findFirst({ where: { id: patientId, organisationId }, select: { id: true } });
  if (!patient) throw new NotFoundError();
  return submissionReturnCode(await lastSignedSubmission(organisationId, patientId, intent));
}

/** GET /api/v0/patient/intent: the same rule for a shop's customer; an unknown customer, or a shop outside the organisation, is not found. */
export async function shopCustomerIntentReturnCode(organisationId: string, customer: ShopCustomerRef, intent: string): Promise<SubmissionReturnCode> {
  const db = await database();
  const patientId = await knownShopCustomerPatient(db, organisationId, customer);
  return submissionReturnCode(await lastSignedSubmission(organisationId, patientId, intent));
}
