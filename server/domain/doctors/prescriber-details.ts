import type { Prisma } from "@/server/db/generated/client";
import { database } from "@/server/db/client";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError } from "@/server/domain/errors";

/**
 * What a prescription names of its prescriber besides the name (AMVV § 2 (1) 1: profession, practice
 * address with a telephone number; an identification such as the LANR where there is one), set by
 * the admin team per doctor. Validated by the door's schema (admin-doctors.schemas.ts); empty is null.
 */
export type PrescriberDetails = {
  professionalTitle: string | null;
  practiceName: string | null;
  practiceStreet: string | null;
  practicePostalCode: string | null;
  practiceCity: string | null;
  /** ISO 3166-1 alpha-2. */
  practiceCountry: string | null;
  phone: string | null;
  /** The e-mail the document shows; null: the doctor's e-mail. */
  prescriptionEmail: string | null;
  identificationType: string | null;
  identificationValue: string | null;
};

export const PRESCRIBER_DETAIL_FIELDS = [
  "professionalTitle",
  "practiceName",
  "practiceStreet",
  "practicePostalCode",
  "practiceCity",
  "practiceCountry",
  "phone",
  "prescriptionEmail",
  "identificationType",
  "identificationValue",
] as const satisfies readonly (keyof PrescriberDetails)[];

/** How the audit log names a changed field. */
const FIELD_WORDS: Record<keyof PrescriberDetails, string> = {
  professionalTitle: "professional title",
  practiceName: "practice name",
  practiceStreet: "practice street",
  practicePostalCode: "practice postal code",
  practiceCity: "practice city",
  practiceCountry: "practice country",
  phone: "telephone",
  prescriptionEmail: "prescription e-mail",
  identificationType: "identification type",
  identificationValue: "identification",
};

const doctorSelect = {
  id: true,
  displayName: true,
  email: true,
  canSignQes: true,
  createdAt: true,
  professionalTitle: true,
  practiceName: true,
  practiceStreet: true,
  practicePostalCode: true,
  practiceCity: true,
  practiceCountry: true,
  phone: true,
  prescriptionEmail: true,
  identificationType: true,
  identificationValue: true,
  minutesToRespond: true,
  canSeeAllPrescriptions: true,
  deactivatedAt: true,
  questionnaires: { select: { questionnaireId: true }, orderBy: { questionnaireId: "asc" } },
  user: { select: { id: true, email: true, deactivatedAt: true } },
} as const satisfies Prisma.DoctorSelect & Record<keyof PrescriberDetails, true>;

export type AdminDoctor = Prisma.DoctorGetPayload<{ select: typeof doctorSelect }>;

/** A doctor of the organisation with their prescriber details; another organisation's is not found. */
export async function getAdminDoctor(organisationId: string, doctorId: string): Promise<AdminDoctor> {
  const db = await database();
  const doctor = await db.doctor.findFirst({ where: { id: doctorId, organisationId }, select: doctorSelect });
  if (!doctor) throw new NotFoundError("Doctor not found");
  return doctor;
}

/**
 * An admin sets a doctor's prescriber details, audited with the names of the fields that changed
 * (their values before and after in the details). The doctor's row is locked, so two admins saving
 * at once are both applied and recorded in order. Saving the same details changes and records
 * nothing. Prescriptions signed earlier keep the document they were signed with.
 */
export async function changePrescriberDetails(organisationId: string, adminUserId: string, doctorId: string, details: PrescriberDetails): Promise<AdminDoctor> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "Doctor" WHERE "id" = ${doctorId} AND "organisationId" = ${organisationId} FOR UPDATE`;
    if (!locked) throw new NotFoundError("Doctor not found");
    const before = await tx.doctor.findUniqueOrThrow({ where: { id: doctorId }, select: doctorSelect });
    const changed = PRESCRIBER_DETAIL_FIELDS.filter((field) => (before[field] ?? null) !== details[field]);
    if (changed.length === 0) return before;
    const after = await tx.doctor.update({ where: { id: doctorId }, data: details, select: doctorSelect });
    await recordAuditEvent(tx, organisationId, { type: "USER", userId: adminUserId }, {
      entity: "doctor",
      entityId: doctorId,
      action: "prescriber_details_changed",
      values: { name: before.displayName, fields: changed.map((field) => FIELD_WORDS[field]).join(", ") },
      summary: `Doctor "${before.displayName}": ${changed.map((field) => FIELD_WORDS[field]).join(", ")} changed`,
      details: { changed: Object.fromEntries(changed.map((field) => [field, { from: before[field] ?? null, to: details[field] }])) },
    });
    return after;
  });
}
