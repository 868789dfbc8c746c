import { database, type Tx } from "@/server/db/client";
import { FieldErrorCollector } from "@/server/domain/errors";
import { RECIPIENT_ROLES, recordPatientDoctorMeetingUpdated } from "@/server/domain/events/organisation-events";
import { queueMeetingMails } from "@/server/domain/mail/meeting-mails";
import { APPOINTMENT_STATUS } from "./statuses";

/**
 * Scheduled appointments: a minimal model of the product's scheduling (gaps reference, "APIs not in
 * the spec: Scheduling"; docs/spec-gaps.md#issue-13-waiting-room-and-meetings). An appointment is a
 * Meeting of kind SCHEDULED with the appointment statuses; its reminders are AppointmentReminder rows
 * that the reminder job sends as appointment_reminder_due when due.
 */
/** Who an appointment reminder goes to (appointment_reminder_due's recipient_role). */
export type ReminderRecipientRole = (typeof RECIPIENT_ROLES)[number];

export type ReminderRule = { recipient_role: ReminderRecipientRole; minutes_before: number };

export type AppointmentInput = {
  doctorId: string;
  patientId: string;
  startsAt: Date;
  durationMinutes: number;
  reminders?: ReminderRule[];
};

export const APPOINTMENT_MINUTES = { min: 5, max: 8 * 60 };
/** Reminders per appointment, and how long before the start the earliest may be (30 days). */
export const REMINDER_LIMITS = { count: 10, maxMinutesBefore: 30 * 24 * 60 };

export type Appointment = { meetingId: string; startsAt: Date; endsAt: Date; reminders: { recipientRole: string; dueAt: Date }[] };

/** Checks the parts of an appointment the caller chose; every problem at once, keyed by its field. */
export function checkAppointmentTimes(
  errors: FieldErrorCollector,
  input: { startsAt: Date; durationMinutes: number; reminders?: ReminderRule[] },
  now: Date,
): void {
  if (!(input.startsAt instanceof Date) || Number.isNaN(input.startsAt.getTime()) || input.startsAt <= now) {
    errors.add(["starts_at"], "The appointment must start in the future.");
  }
  const d = input.durationMinutes;
  if (!Number.isInteger(d) || d < APPOINTMENT_MINUTES.min || d > APPOINTMENT_MINUTES.max) {
    errors.add(["duration_minutes"], `Enter whole minutes from ${APPOINTMENT_MINUTES.min} to ${APPOINTMENT_MINUTES.max}.`);
  }
  const reminders = input.reminders ?? [];
  if (reminders.length > REMINDER_LIMITS.count) errors.add(["reminders"], `At most ${REMINDER_LIMITS.count} reminders.`);
  reminders.forEach((r, i) => {
    if (!RECIPIENT_ROLES.includes(r.recipient_role)) {
      errors.add(["reminders", i, "recipient_role"], `Must be one of: ${RECIPIENT_ROLES.join(", ")}.`);
    }
    const m = r.minutes_before;
    if (!Number.isInteger(m) || m < 0 || m > REMINDER_LIMITS.maxMinutesBefore) {
      errors.add(["reminders", i, "minutes_before"], `Enter whole minutes from 0 to ${REMINDER_LIMITS.maxMinutesBefore}.`);
    }
  });
}

/** The doctor and the patient must be the organisation's. */
export async function checkParticipants(
  tx: Tx,
  errors: FieldErrorCollector,
  organisationId: string,
  input: { doctorId: string; patientId?: string },
): Promise<void> {
  const doctor = await tx.doctor.findFirst({ where: { id: input.doctorId, organisationId }, select: { id: true } });
  if (!doctor) errors.add(["doctor_uid"], "No doctor with this uid in the organisation.");
  if (input.patientId === undefined) return;
  const patient = await tx.patientProfile.findFirst({ where: { id: input.patientId, organisationId }, select: { id: true } });
  if (!patient) errors.add(["patient_profile_uid"], "No patient profile with this uid in the organisation.");
}

/**
 * Books a confirmed appointment with its reminders, inside the caller's transaction. A reminder
 * whose time has already passed at booking is not created (it would only arrive late); the same
 * role and time twice is one reminder.
 */
export async function insertAppointment(
  tx: Tx,
  organisationId: string,
  input: AppointmentInput & { rebookedFromId?: string },
  now: Date,
): Promise<Appointment> {
  const endsAt = new Date(input.startsAt.getTime() + input.durationMinutes * 60_000);
  const meeting = await tx.meeting.create({
    data: {
      organisationId,
      kind: "SCHEDULED",
      status: APPOINTMENT_STATUS.confirmed,
      doctorId: input.doctorId,
      patientId: input.patientId,
      rebookedFromId: input.rebookedFromId ?? null,
      startsAt: input.startsAt,
      endsAt,
    },
    select: { id: true },
  });
  const reminders = (input.reminders ?? [])
    .map((r) => ({ recipientRole: r.recipient_role, dueAt: new Date(input.startsAt.getTime() - r.minutes_before * 60_000) }))
    .filter((r) => r.dueAt > now);
  if (reminders.length > 0) {
    await tx.appointmentReminder.createMany({ data: reminders.map((r) => ({ meetingId: meeting.id, ...r })), skipDuplicates: true });
  }
  const stored = await tx.appointmentReminder.findMany({
    where: { meetingId: meeting.id },
    select: { recipientRole: true, dueAt: true },
    orderBy: [{ dueAt: "asc" }, { recipientRole: "asc" }],
  });
  return { meetingId: meeting.id, startsAt: input.startsAt, endsAt, reminders: stored };
}

/**
 * Books an appointment of the organisation's doctor with its patient (status confirmed) and its
 * reminders ({recipient_role, minutes_before}); records patient_doctor_meeting_updated (change
 * confirmed, status confirmed) and queues the meeting e-mails the organisation chose. Invalid
 * input → ValidationError by field, nothing written.
 */
export async function scheduleAppointment(organisationId: string, input: AppointmentInput, now = new Date()): Promise<Appointment> {
  const errors = new FieldErrorCollector();
  checkAppointmentTimes(errors, input, now);
  const db = await database();
  return db.$transaction(
    async (tx) => {
      await checkParticipants(tx, errors, organisationId, input);
      errors.throwIfAny();
      const appointment = await insertAppointment(tx, organisationId, input, now);
      await recordPatientDoctorMeetingUpdated(tx, organisationId, {
        meeting_uid: appointment.meetingId,
        change: "confirmed",
        status: APPOINTMENT_STATUS.confirmed,
      });
      await queueMeetingMails(tx, organisationId, appointment.meetingId, { kind: "meeting_confirmed" });
      return appointment;
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}
