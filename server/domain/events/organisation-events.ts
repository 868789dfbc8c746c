import { z } from "zod";
import type { Tx } from "@/server/db/client";
import { REMINDER_RECIPIENT_ROLES } from "@/server/domain/meetings/statuses";
import { recordEvent } from "./outbox";

/**
 * The organisation-only events. Unlike the pharmacy events, whose payload is rebuilt from current
 * state at each attempt, these carry the data captured when the event occurred. Their producers
 * (appointment reminders, patient–doctor meetings) call these functions inside their own
 * transaction; a payload that breaks the rules is a programming error and throws.
 */

/** rebook_allowed and cancel_allowed can be true only when the reminder goes to the patient. */
export const appointmentReminderDueData = z
  .object({
    appointment_uid: z.string().min(1),
    recipient_role: z.enum(REMINDER_RECIPIENT_ROLES),
    rebook_allowed: z.boolean(),
    cancel_allowed: z.boolean(),
    starts_at: z.number().int().nonnegative(),
  })
  .refine((d) => d.recipient_role === "patient" || (!d.rebook_allowed && !d.cancel_allowed), {
    message: "rebook_allowed and cancel_allowed can be true only when recipient_role is patient",
  });

/** change is what happened (authoritative); status the meeting's current status, null for on-demand meetings. */
const MEETING_CHANGES = ["confirmed", "cancelled", "rebooked", "completed", "no_show", "expired"] as const;
export const patientDoctorMeetingUpdatedData = z.object({
  meeting_uid: z.string().min(1),
  change: z.enum(MEETING_CHANGES),
  status: z.string().min(1).nullable(),
});

export async function recordAppointmentReminderDue(tx: Tx, organisationId: string, data: z.input<typeof appointmentReminderDueData>) {
  const parsed = appointmentReminderDueData.parse(data);
  await recordEvent(tx, { type: "appointment_reminder_due", organisationId, subjectId: parsed.appointment_uid, data: parsed });
}

/** A reschedule is two events: cancelled for the old meeting, rebooked for the new one. */
export async function recordPatientDoctorMeetingUpdated(
  tx: Tx,
  organisationId: string,
  data: z.input<typeof patientDoctorMeetingUpdatedData>,
) {
  const parsed = patientDoctorMeetingUpdatedData.parse(data);
  await recordEvent(tx, { type: "patient_doctor_meeting_updated", organisationId, subjectId: parsed.meeting_uid, data: parsed });
}
