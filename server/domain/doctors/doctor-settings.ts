import { errorText } from "@/i18n/error-text";
import { database, type Tx } from "@/server/db/client";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError, ValidationError } from "@/server/domain/errors";
import { AWAITING_DOCTOR_STATUSES, PRESCRIPTION_STATUS, storedSpellings } from "@/server/domain/prescriptions/statuses";

/**
 * The Doctors section of the admin tool (docs/decisions/admin-tool.md#the-doctors-section): each
 * doctor's name, e-mail, minutes to respond, the rights "can sign prescriptions" and "can see all
 * prescriptions", and the questionnaires a doctor who does not see all is offered. Validated by the
 * door's schema (admin-doctors.schemas.ts); every change is audited with the fields that changed.
 */
export type DoctorSettings = {
  displayName: string;
  email: string | null;
  /** A positive number of minutes; null: never flagged on the admin home. */
  minutesToRespond: number | null;
  canSignQes: boolean;
  canSeeAllPrescriptions: boolean;
  /** The organisation's questionnaires assigned to the doctor (used only while they do not see all). */
  questionnaireIds: string[];
};

const SCALAR_FIELDS = ["displayName", "email", "minutesToRespond", "canSignQes", "canSeeAllPrescriptions"] as const satisfies readonly (keyof DoctorSettings)[];

/** How the audit log names a changed field. */
const FIELD_WORDS: Record<keyof DoctorSettings, string> = {
  displayName: "name",
  email: "e-mail",
  minutesToRespond: "minutes to respond",
  canSignQes: "can sign prescriptions",
  canSeeAllPrescriptions: "can see all prescriptions",
  questionnaireIds: "assigned questionnaires",
};

/** The statuses a doctor's pending requests are in (the list's count): waiting, on hold, approved and not signed. */
export const PENDING_STATUSES = storedSpellings(AWAITING_DOCTOR_STATUSES);
/** What a requeue moves: the requests not decided yet. Approved ones are being signed and stay. */
export const REQUEUE_STATUSES = storedSpellings([PRESCRIPTION_STATUS.waitingForDoctor, PRESCRIPTION_STATUS.onHold]);

/** The list can hold every doctor of an organisation at once; beyond this many, the first by name. */
export const DOCTOR_LIST_LIMIT = 500;

export type DoctorListEntry = {
  id: string;
  displayName: string;
  email: string | null;
  minutesToRespond: number | null;
  canSignQes: boolean;
  canSeeAllPrescriptions: boolean;
  deactivatedAt: Date | null;
  /** Assigned to the doctor: waiting for doctor, on hold, or approved and not signed. */
  pending: number;
  /** Of those waiting for the doctor, how many wait longer than the doctor's minutes to respond (admin-home/attention.ts counts the same). */
  overdue: number;
};

/** The organisation's doctors by name, each with their pending requests (one statement). */
export async function listAdminDoctors(organisationId: string, now = new Date()): Promise<{ items: DoctorListEntry[]; total: number }> {
  const db = await database();
  const waiting = storedSpellings([PRESCRIPTION_STATUS.waitingForDoctor]);
  const [items, total] = await Promise.all([
    db.$queryRaw<DoctorListEntry[]>`
      SELECT d."id", d."displayName", d."email", d."minutesToRespond", d."canSignQes", d."canSeeAllPrescriptions", d."deactivatedAt",
             coalesce(c."pending", 0)::int AS "pending", coalesce(c."overdue", 0)::int AS "overdue"
        FROM "Doctor" d
        LEFT JOIN LATERAL (
          SELECT count(*) AS "pending",
                 count(*) FILTER (WHERE p."status" = ANY(${waiting}::text[]) AND d."minutesToRespond" IS NOT NULL
                                   AND p."createdAt" < ${now}::timestamptz - make_interval(mins => d."minutesToRespond")
                                   AND NOT coalesce(o."onHold", false)) AS "overdue"
            FROM "Prescription" p LEFT JOIN "Order" o ON o."id" = p."orderId"
           WHERE p."doctorId" = d."id" AND p."organisationId" = d."organisationId" AND p."deletedAt" IS NULL
             AND p."status" = ANY(${PENDING_STATUSES}::text[])) c ON true
       WHERE d."organisationId" = ${organisationId}
       ORDER BY d."displayName", d."id"
       LIMIT ${DOCTOR_LIST_LIMIT}`,
    db.doctor.count({ where: { organisationId } }),
  ]);
  return { items, total };
}

/** Locks the organisation's doctor for the rest of the transaction; another organisation's is not found. */
export async function lockDoctor(tx: Tx, organisationId: string, doctorId: string): Promise<{ id: string; displayName: string; deactivatedAt: Date | null }> {
  const [locked] = await tx.$queryRaw<{ id: string; displayName: string; deactivatedAt: Date | null }[]>`
    SELECT "id", "displayName", "deactivatedAt" FROM "Doctor" WHERE "id" = ${doctorId} AND "organisationId" = ${organisationId} FOR UPDATE`;
  if (!locked) throw new NotFoundError("Doctor not found");
  return locked;
}

/**
 * An admin changes a doctor's settings, under the doctor's row lock (two admins saving at once are
 * both applied and recorded in order). The assigned questionnaires must be the organisation's; they
 * are kept while the doctor sees all (so turning "sees all" off again restores them). Saving the same
 * settings changes and records nothing. Returns the names of the fields that changed.
 */
export async function changeDoctorSettings(organisationId: string, adminUserId: string, doctorId: string, settings: DoctorSettings): Promise<string[]> {
  const db = await database();
  return db.$transaction(async (tx) => {
    await lockDoctor(tx, organisationId, doctorId);
    const before = await tx.doctor.findUniqueOrThrow({
      where: { id: doctorId },
      select: { displayName: true, email: true, minutesToRespond: true, canSignQes: true, canSeeAllPrescriptions: true, questionnaires: { select: { questionnaireId: true } } },
    });
    const wanted = [...new Set(settings.questionnaireIds)].sort();
    if (wanted.length > 0) {
      const known = await tx.questionnaire.findMany({ where: { organisationId, id: { in: wanted } }, select: { id: true } });
      if (known.length !== wanted.length) throw ValidationError.field("questionnaire_uids", errorText("doctors.unknownQuestionnaire"));
    }
    const had = before.questionnaires.map((q) => q.questionnaireId).sort();
    const added = wanted.filter((id) => !had.includes(id));
    const removed = had.filter((id) => !wanted.includes(id));
    const changedScalars = SCALAR_FIELDS.filter((field) => (before[field] ?? null) !== (settings[field] ?? null));
    const changed: (keyof DoctorSettings)[] = [...changedScalars, ...(added.length + removed.length > 0 ? (["questionnaireIds"] as const) : [])];
    if (changed.length === 0) return [];
    if (changedScalars.length > 0) {
      await tx.doctor.update({ where: { id: doctorId }, data: Object.fromEntries(changedScalars.map((field) => [field, settings[field]])) });
    }
    if (removed.length > 0) await tx.doctorQuestionnaire.deleteMany({ where: { doctorId, questionnaireId: { in: removed } } });
    if (added.length > 0) await tx.doctorQuestionnaire.createMany({ data: added.map((questionnaireId) => ({ doctorId, questionnaireId })), skipDuplicates: true });
    await recordAuditEvent(tx, organisationId, { type: "USER", userId: adminUserId }, {
      entity: "doctor",
      entityId: doctorId,
      action: "settings_changed",
      values: { name: before.displayName, fields: changed.map((field) => FIELD_WORDS[field]).join(", ") },
      summary: `Doctor "${before.displayName}": ${changed.map((field) => FIELD_WORDS[field]).join(", ")} changed`,
      details: {
        changed: Object.fromEntries(changedScalars.map((field) => [field, { from: before[field] ?? null, to: settings[field] ?? null }])),
        ...(added.length + removed.length > 0 ? { questionnaires: { added, removed } } : {}),
      },
    });
    return changed;
  });
}

/**
 * Deactivates a doctor (or reactivates one). A deactivated doctor cannot sign in to the workspace
 * (server/auth/portal-session.ts: sign-in and every call), decide (decisions.ts), be given a request
 * (order intake's doctor_uid, a requeue) or get new-request e-mails. Their pending requests stay
 * theirs: the admin requeues them. Doing it again changes and records nothing.
 */
export async function setDoctorActive(organisationId: string, adminUserId: string, doctorId: string, active: boolean, now = new Date()): Promise<boolean> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const doctor = await lockDoctor(tx, organisationId, doctorId);
    if ((doctor.deactivatedAt === null) === active) return false;
    await tx.doctor.update({ where: { id: doctorId }, data: { deactivatedAt: active ? null : now } });
    // As a user's deactivation does: reactivating the doctor later does not bring old sessions back.
    if (!active) await tx.user.updateMany({ where: { doctorId }, data: { sessionVersion: { increment: 1 } } });
    await recordAuditEvent(tx, organisationId, { type: "USER", userId: adminUserId }, {
      entity: "doctor",
      entityId: doctorId,
      action: active ? "reactivated" : "deactivated",
      values: { name: doctor.displayName },
      summary: `Doctor "${doctor.displayName}" ${active ? "reactivated" : "deactivated"}`,
    });
    return true;
  });
}

/** A doctor's pending requests by status (what a requeue moves, and what stays: approved, being signed). */
export async function pendingOfDoctor(organisationId: string, doctorId: string): Promise<{ waiting: number; onHold: number; approved: number }> {
  const db = await database();
  const [row] = await db.$queryRaw<{ waiting: number; onHold: number; approved: number }[]>`
    SELECT count(*) FILTER (WHERE "status" = ANY(${storedSpellings([PRESCRIPTION_STATUS.waitingForDoctor])}::text[]))::int AS "waiting",
           count(*) FILTER (WHERE "status" = ${PRESCRIPTION_STATUS.onHold})::int AS "onHold",
           count(*) FILTER (WHERE "status" = ${PRESCRIPTION_STATUS.approved})::int AS "approved"
      FROM "Prescription"
     WHERE "organisationId" = ${organisationId} AND "doctorId" = ${doctorId} AND "deletedAt" IS NULL AND "status" = ANY(${PENDING_STATUSES}::text[])`;
  return row;
}
