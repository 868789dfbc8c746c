import { errorText } from "@/i18n/error-text";
import { database, type Tx } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { FieldErrorCollector, NotFoundError } from "@/server/domain/errors";
import { recordPatientDoctorMeetingUpdated } from "@/server/domain/events/organisation-events";
import { queueMeetingMails } from "@/server/domain/mail/meeting-mails";
import { APPOINTMENT_MINUTES, APPOINTMENT_STATUS, REMINDER_LIMITS, REMINDER_RECIPIENT_ROLES, type ReminderRecipientRole } from "./statuses";

/**
 * Scheduled appointments: a minimal model of the product's scheduling (gaps reference, "APIs not in
 * the spec: Scheduling"; docs/decisions/telemedicine.md#waiting-room-and-meetings). An appointment is a
 * Meeting of kind SCHEDULED with the appointment statuses; its reminders are AppointmentReminder rows
 * that the reminder job sends as appointment_reminder_due when due.
 */
export type ReminderRule = { recipient_role: ReminderRecipientRole; minutes_before: number };

export type AppointmentInput = {
  doctorId: string;
  patientId: string;
  startsAt: Date;
  durationMinutes: number;
  reminders?: ReminderRule[];
};

/**
 * A person changing appointments in a portal (docs/decisions/telemedicine.md#appointments-in-the-portals):
 * the actor the audit log names, and for a doctor their own Doctor, whose appointments alone they
 * may book and change (another doctor's is not found). Without one (the domain's own callers)
 * nothing is audited and any doctor's appointment is in reach.
 */
export type AppointmentCaller = { actor: Actor; doctorId?: string };

/** An appointment's time as the audit log writes it (UTC, to the minute). */
export const auditTime = (at: Date) => `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;

export type Appointment = { meetingId: string; startsAt: Date; endsAt: Date; reminders: { recipientRole: string; dueAt: Date }[] };

/** Checks the parts of an appointment the caller chose; every problem at once, keyed by its field. */
export function checkAppointmentTimes(
  errors: FieldErrorCollector,
  input: { startsAt: Date; durationMinutes: number; reminders?: ReminderRule[] },
  now: Date,
): void {
  if (!(input.startsAt instanceof Date) || Number.isNaN(input.startsAt.getTime()) || input.startsAt <= now) {
    errors.add(["starts_at"], errorText("appointments.startInFuture"));
  }
  const d = input.durationMinutes;
  if (!Number.isInteger(d) || d < APPOINTMENT_MINUTES.min || d > APPOINTMENT_MINUTES.max) {
    errors.add(["duration_minutes"], errorText("appointments.wholeMinutes", APPOINTMENT_MINUTES));
  }
  const reminders = input.reminders ?? [];
  if (reminders.length > REMINDER_LIMITS.count) errors.add(["reminders"], errorText("appointments.tooManyReminders", { max: REMINDER_LIMITS.count }));
  reminders.forEach((r, i) => {
    if (!REMINDER_RECIPIENT_ROLES.includes(r.recipient_role)) {
      errors.add(["reminders", i, "recipient_role"], errorText("fields.oneOf", { values: REMINDER_RECIPIENT_ROLES.join(", ") }));
    }
    const m = r.minutes_before;
    if (!Number.isInteger(m) || m < 0 || m > REMINDER_LIMITS.maxMinutesBefore) {
      errors.add(["reminders", i, "minutes_before"], errorText("appointments.wholeMinutes", { min: 0, max: REMINDER_LIMITS.maxMinutesBefore }));
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
  if (!doctor) errors.add(["doctor_uid"], errorText("fields.unknownDoctor"));
  if (input.patientId === undefined) return;
  const patient = await tx.patientProfile.findFirst({ where: { id: input.patientId, organisationId }, select: { id: true } });
  if (!patient) errors.add(["patient_profile_uid"], errorText("appointments.unknownPatient"));
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
 * confirmed, status confirmed), queues the meeting e-mails the organisation chose, and audits a
 * portal user's booking. Invalid input → ValidationError by field, nothing written; a doctor booking
 * for another doctor → not found.
 */
export async function scheduleAppointment(organisationId: string, input: AppointmentInput, caller?: AppointmentCaller, now = new Date()): Promise<Appointment> {
  if (caller?.doctorId !== undefined && caller.doctorId !== input.doctorId) throw new NotFoundError();
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
      if (caller) {
        await recordAuditEvent(tx, organisationId, caller.actor, {
          entity: "appointment",
          entityId: appointment.meetingId,
          action: "scheduled",
          values: { at: auditTime(input.startsAt), minutes: input.durationMinutes },
          summary: `Appointment on ${auditTime(input.startsAt)} (${input.durationMinutes} min) scheduled`,
          details: { doctor_uid: input.doctorId, patient_profile_uid: input.patientId, reminders: appointment.reminders.length },
        });
      }
      return appointment;
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}
