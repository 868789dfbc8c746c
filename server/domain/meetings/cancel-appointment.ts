import { errorText } from "@/i18n/error-text";
import { database, type Tx } from "@/server/db/client";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { ConflictError, ValidationError } from "@/server/domain/errors";
import { recordPatientDoctorMeetingUpdated } from "@/server/domain/events/organisation-events";
import { queueMeetingMails } from "@/server/domain/mail/meeting-mails";
import { lockMeeting, type LockedMeeting } from "./lock";
import { auditTime, type AppointmentCaller } from "./schedule-appointment";
import { APPOINTMENT_REASON_MAX, APPOINTMENT_STATUS } from "./statuses";

/** A reason is required to cancel or reschedule (the product's admin cancellation needs one). */
export function cancelReason(reason: string | null | undefined): string {
  const text = reason?.trim() ?? "";
  if (!text) throw ValidationError.field("reason", errorText("appointments.reasonRequired"));
  if (text.length > APPOINTMENT_REASON_MAX) throw ValidationError.field("reason", errorText("fields.atMostCharacters", { max: APPOINTMENT_REASON_MAX }));
  return text;
}

/**
 * Cancels a confirmed appointment inside the caller's transaction, the meeting already locked:
 * status cancelled with its reason, its unsent reminders removed (they are never sent), and
 * patient_doctor_meeting_updated (change cancelled, status cancelled).
 */
export async function cancelLockedAppointment(tx: Tx, meeting: LockedMeeting, reason: string): Promise<void> {
  await tx.meeting.update({ where: { id: meeting.id }, data: { status: APPOINTMENT_STATUS.cancelled, cancelReason: reason } });
  await tx.appointmentReminder.deleteMany({ where: { meetingId: meeting.id, sentAt: null } });
  await recordPatientDoctorMeetingUpdated(tx, meeting.organisationId, {
    meeting_uid: meeting.id,
    change: "cancelled",
    status: APPOINTMENT_STATUS.cancelled,
  });
}

/**
 * Cancels an appointment of the organisation (reason required), with the meeting e-mails the
 * organisation chose, audited when a portal user cancels. Cancelling a cancelled one again changes
 * nothing (`changed: false`, no second event, e-mail or audit entry); any status other than
 * confirmed is a 409. A doctor reaches only their own appointments (another's: not found).
 */
export async function cancelAppointment(
  organisationId: string,
  meetingId: string,
  reason: string,
  caller?: AppointmentCaller,
): Promise<{ meetingId: string; changed: boolean }> {
  const why = cancelReason(reason);
  const db = await database();
  return db.$transaction(
    async (tx) => {
      const meeting = await lockMeeting(tx, organisationId, meetingId, "SCHEDULED", caller?.doctorId);
      if (meeting.status === APPOINTMENT_STATUS.cancelled) return { meetingId: meeting.id, changed: false };
      if (meeting.status !== APPOINTMENT_STATUS.confirmed) {
        throw new ConflictError(errorText("appointments.cannotCancel", { status: meeting.status ?? "" }));
      }
      await cancelLockedAppointment(tx, meeting, why);
      await queueMeetingMails(tx, organisationId, meeting.id, { kind: "meeting_cancelled" });
      if (caller) {
        await recordAuditEvent(tx, organisationId, caller.actor, {
          entity: "appointment",
          entityId: meeting.id,
          action: "cancelled",
          values: { at: auditTime(meeting.startsAt) },
          summary: `Appointment on ${auditTime(meeting.startsAt)} cancelled`,
          details: { reason: why },
        });
      }
      return { meetingId: meeting.id, changed: true };
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}
