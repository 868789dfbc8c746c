import { errorText } from "@/i18n/error-text";
import { database } from "@/server/db/client";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { ConflictError, FieldErrorCollector, NotFoundError } from "@/server/domain/errors";
import { recordPatientDoctorMeetingUpdated } from "@/server/domain/events/organisation-events";
import { queueMeetingMails } from "@/server/domain/mail/meeting-mails";
import { cancelLockedAppointment, cancelReason } from "./cancel-appointment";
import { lockMeeting } from "./lock";
import {
  auditTime,
  checkAppointmentTimes,
  checkParticipants,
  insertAppointment,
  type Appointment,
  type AppointmentCaller,
  type ReminderRule,
} from "./schedule-appointment";
import { APPOINTMENT_STATUS, type ReminderRecipientRole } from "./statuses";

export type Reschedule = {
  startsAt: Date;
  /** Omitted: the old appointment's length. */
  durationMinutes?: number;
  /** Omitted: the same doctor. */
  doctorId?: string;
  reason: string;
};

/**
 * Moves a confirmed appointment: the old meeting is cancelled (with the reason) and a new confirmed
 * one names it in rebookedFromId; the reminder schedule moves along (the same roles and minutes
 * before the new start; the old meeting's unsent reminders are removed, its sent ones stay as its
 * history). Events: cancelled for the old meeting, then rebooked for the new one (the spec's
 * reschedule). The old meeting is locked, so a meeting is rebooked once (a second reschedule finds
 * it cancelled: 409). A portal user's reschedule is audited; a doctor reaches only their own
 * appointments (another's: not found) and keeps them (no move to another doctor).
 */
export async function rescheduleAppointment(
  organisationId: string,
  meetingId: string,
  input: Reschedule,
  caller?: AppointmentCaller,
  now = new Date(),
): Promise<Appointment> {
  const why = cancelReason(input.reason);
  const db = await database();
  return db.$transaction(
    async (tx) => {
      const old = await lockMeeting(tx, organisationId, meetingId, "SCHEDULED", caller?.doctorId);
      if (old.status !== APPOINTMENT_STATUS.confirmed) {
        throw new ConflictError(errorText("appointments.cannotReschedule", { status: old.status ?? "" }));
      }
      const durationMinutes = input.durationMinutes ?? Math.round(((old.endsAt ?? old.startsAt).getTime() - old.startsAt.getTime()) / 60_000);
      const doctorId = input.doctorId ?? old.doctorId;
      if (caller?.doctorId !== undefined && doctorId !== caller.doctorId) throw new NotFoundError();
      const schedule = await tx.appointmentReminder.findMany({ where: { meetingId: old.id }, select: { recipientRole: true, dueAt: true } });
      const reminders: ReminderRule[] = schedule.map((r) => ({
        recipient_role: r.recipientRole as ReminderRecipientRole,
        minutes_before: Math.round((old.startsAt.getTime() - r.dueAt.getTime()) / 60_000),
      }));
      const errors = new FieldErrorCollector();
      checkAppointmentTimes(errors, { startsAt: input.startsAt, durationMinutes }, now);
      if (input.doctorId !== undefined) await checkParticipants(tx, errors, organisationId, { doctorId });
      errors.throwIfAny();

      await cancelLockedAppointment(tx, old, why);
      const rebooked = await insertAppointment(
        tx,
        organisationId,
        { doctorId, patientId: old.patientId, startsAt: input.startsAt, durationMinutes, reminders, rebookedFromId: old.id },
        now,
      );
      await recordPatientDoctorMeetingUpdated(tx, organisationId, {
        meeting_uid: rebooked.meetingId,
        change: "rebooked",
        status: APPOINTMENT_STATUS.confirmed,
      });
      // One e-mail per recipient for the move (the spec: at most one), not a cancellation and a confirmation.
      await queueMeetingMails(tx, organisationId, rebooked.meetingId, { kind: "meeting_rescheduled", previousStartsAt: old.startsAt });
      if (caller) {
        await recordAuditEvent(tx, organisationId, caller.actor, {
          entity: "appointment",
          entityId: rebooked.meetingId,
          action: "rescheduled",
          values: { from: auditTime(old.startsAt), to: auditTime(input.startsAt), minutes: durationMinutes },
          summary: `Appointment on ${auditTime(old.startsAt)} moved to ${auditTime(input.startsAt)} (${durationMinutes} min)`,
          details: { rebooked_from_uid: old.id, reason: why, doctor_uid: doctorId },
        });
      }
      return rebooked;
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}
