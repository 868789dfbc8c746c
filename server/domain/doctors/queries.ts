import { database } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { pageArgs, type Page } from "@/server/domain/paging";
import {
  AWAITING_DOCTOR_STATUSES,
  PRESCRIPTION_STATUS,
  SIGNED_PRESCRIPTION_STATUSES,
  storedSpellings,
} from "@/server/domain/prescriptions/statuses";

/** The organisation's doctors (the people who decide on and sign prescriptions), by name. */
export async function listDoctors(organisationId: string, page: Page) {
  const db = await database();
  const [items, total] = await Promise.all([
    db.doctor.findMany({
      where: { organisationId },
      orderBy: [{ displayName: "asc" }, { id: "asc" }],
      include: { questionnaires: { select: { questionnaireId: true }, orderBy: { questionnaireId: "asc" } } },
      ...pageArgs(page),
    }),
    db.doctor.count({ where: { organisationId } }),
  ]);
  return { items, total };
}

export type DoctorStatistics = {
  doctorId: string;
  from: Date;
  to: Date;
  /** Prescriptions of the doctor signed (any signed status) and declined in the range, counted by when the decision was made. */
  signed: number;
  declined: number;
  /** Prescriptions assigned to the doctor, created in the range, still awaiting a decision (waiting for doctor, on hold, approved). */
  pending: number;
  /** Waiting-room consultations the doctor completed in the range, and their average length from allocation to completion. */
  consultationsCompleted: number;
  averageConsultationMinutes: number | null;
};

/** A doctor's statistics over [from, to] (both inclusive); a doctor of another organisation is not found. */
export async function getDoctorStatistics(organisationId: string, doctorId: string, range: { from: Date; to: Date }): Promise<DoctorStatistics> {
  const db = await database();
  const doctor = await db.doctor.findFirst({ where: { id: doctorId, organisationId }, select: { id: true } });
  if (!doctor) throw new NotFoundError();
  const { from, to } = range;
  const signedStatuses = storedSpellings(SIGNED_PRESCRIPTION_STATUSES);
  const declined = [PRESCRIPTION_STATUS.declined];
  const [row] = await db.$queryRaw<
    { signed: number; declined: number; pending: number; completed: number; averageSeconds: number | null }[]
  >`
    WITH decided AS (
      SELECT h."prescriptionId", h."toStatus" FROM "PrescriptionHistory" h JOIN "Prescription" p ON p."id" = h."prescriptionId"
       WHERE p."organisationId" = ${organisationId} AND p."doctorId" = ${doctorId} AND p."deletedAt" IS NULL
         AND h."createdAt" BETWEEN ${from}::timestamptz AND ${to}::timestamptz),
    consultations AS (
      SELECT w."allocatedAt", w."completedAt" FROM "WaitingRoomEntry" w
       WHERE w."organisationId" = ${organisationId} AND w."doctorId" = ${doctorId} AND w."completedAt" BETWEEN ${from}::timestamptz AND ${to}::timestamptz)
    SELECT
      (SELECT count(DISTINCT "prescriptionId") FROM decided WHERE "toStatus" = ANY(${signedStatuses}::text[]))::int AS "signed",
      (SELECT count(DISTINCT "prescriptionId") FROM decided WHERE "toStatus" = ANY(${declined}::text[]))::int AS "declined",
      (SELECT count(*) FROM "Prescription" p
        WHERE p."organisationId" = ${organisationId} AND p."doctorId" = ${doctorId} AND p."deletedAt" IS NULL
          AND p."status" = ANY(${storedSpellings(AWAITING_DOCTOR_STATUSES)}::text[]) AND p."createdAt" BETWEEN ${from}::timestamptz AND ${to}::timestamptz)::int AS "pending",
      (SELECT count(*) FROM consultations)::int AS "completed",
      (SELECT avg(extract(epoch FROM "completedAt" - "allocatedAt")) FROM consultations WHERE "allocatedAt" IS NOT NULL)::float8 AS "averageSeconds"`;
  return {
    doctorId,
    from,
    to,
    signed: row.signed,
    declined: row.declined,
    pending: row.pending,
    consultationsCompleted: row.completed,
    averageConsultationMinutes: row.averageSeconds === null ? null : Math.round((row.averageSeconds / 60) * 10) / 10,
  };
}
