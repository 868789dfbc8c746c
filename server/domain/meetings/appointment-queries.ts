import { database, type Prisma } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { APPOINTMENT_LIST_LIMITS } from "./statuses";

/** Whose appointments a reader may see: a doctor only their own (doctorId); an administrator any of the organisation's. */
export type AppointmentReader = { doctorId?: string };

const appointmentGraph = {
  id: true,
  status: true,
  startsAt: true,
  endsAt: true,
  cancelReason: true,
  doctor: { select: { id: true, displayName: true } },
  patient: { select: { id: true, displayName: true, firstName: true, lastName: true, email: true, dateOfBirth: true } },
  rebookedFrom: { select: { id: true, startsAt: true } },
  rebookedAs: { select: { id: true, startsAt: true } },
  reminders: { select: { recipientRole: true, dueAt: true, sentAt: true }, orderBy: [{ dueAt: "asc" }, { recipientRole: "asc" }] },
} satisfies Prisma.MeetingSelect;

export type AppointmentRow = Prisma.MeetingGetPayload<{ select: typeof appointmentGraph }>;

/**
 * The organisation's scheduled appointments that start in [from, to), by start, each with its doctor,
 * patient, reminders and what it was rebooked from or as; cancelled ones included (the list shows
 * what happened). `doctorId` narrows to one doctor of the organisation (another's: not found); a
 * doctor reader sees only their own (naming another doctor: not found). At most
 * APPOINTMENT_LIST_LIMITS.maxRows, `more` when there are more.
 */
export async function listAppointments(
  organisationId: string,
  range: { from: Date; to: Date; doctorId?: string },
  reader: AppointmentReader = {},
): Promise<{ items: AppointmentRow[]; more: boolean }> {
  if (reader.doctorId && range.doctorId && range.doctorId !== reader.doctorId) throw new NotFoundError();
  const doctorId = range.doctorId ?? reader.doctorId;
  const db = await database();
  if (doctorId && !(await db.doctor.findFirst({ where: { id: doctorId, organisationId }, select: { id: true } }))) throw new NotFoundError();
  const rows = await db.meeting.findMany({
    where: { organisationId, kind: "SCHEDULED", startsAt: { gte: range.from, lt: range.to }, ...(doctorId ? { doctorId } : {}) },
    orderBy: [{ startsAt: "asc" }, { id: "asc" }],
    take: APPOINTMENT_LIST_LIMITS.maxRows + 1,
    select: appointmentGraph,
  });
  return { items: rows.slice(0, APPOINTMENT_LIST_LIMITS.maxRows), more: rows.length > APPOINTMENT_LIST_LIMITS.maxRows };
}

/** The doctors a reader may book for: the organisation's, by name; a doctor only themselves. */
export async function appointmentDoctors(organisationId: string, reader: AppointmentReader = {}) {
  const db = await database();
  return db.doctor.findMany({
    where: { organisationId, ...(reader.doctorId ? { id: reader.doctorId } : {}) },
    orderBy: [{ displayName: "asc" }, { id: "asc" }],
    select: { id: true, displayName: true },
  });
}
