/**
 * Inputs of the appointment procedures (admin.appointments, doctor.appointments), shared by the
 * router and the forms (zod, server/wire and the meetings' vocabulary only). Times are Unix seconds
 * (UTC); the pages turn them into and from the user's time zone. The rules of an appointment (a
 * future start, its length, the reminders, a reason) are the domain's, worded by field.
 */
import { z } from "zod";
import { APPOINTMENT_LIST_LIMITS, REMINDER_RECIPIENT_ROLES } from "@/server/domain/meetings/statuses";
import { int4, searchTerm, uid, unixSeconds } from "@/server/wire/schemas";
import { ownMessage } from "@/server/wire/zod-messages";

/** A day in a time zone that leaves summer time has 25 hours: the longest range allowed has an hour to spare. */
const MAX_RANGE_SECONDS = APPOINTMENT_LIST_LIMITS.maxDays * 24 * 3600 + 3600;

/** Appointments starting from `from` (inclusive) to `to` (exclusive): a day or a week of the user's calendar. */
export const listAppointmentsInput = z
  .object({ from: unixSeconds(), to: unixSeconds(), doctorUid: uid().optional() })
  .refine((r) => r.from < r.to, { path: ["to"], ...ownMessage("appointments.endAfterStart") })
  .refine((r) => r.to - r.from <= MAX_RANGE_SECONDS, { path: ["to"], ...ownMessage("appointments.rangeTooLong", { days: String(APPOINTMENT_LIST_LIMITS.maxDays) }) });
export type ListAppointmentsInput = z.input<typeof listAppointmentsInput>;

export const findPatientsInput = z.object({ search: searchTerm() });

export const reminderInput = z.object({ recipientRole: z.enum(REMINDER_RECIPIENT_ROLES), minutesBefore: int4() });

/** A new appointment. `doctorUid`: an administrator names the doctor; a doctor books for themselves (theirs, or none). */
export const scheduleAppointmentInput = z.object({
  patientProfileUid: uid(),
  doctorUid: uid().optional(),
  startsAt: unixSeconds(),
  durationMinutes: int4(),
  reminders: z.array(reminderInput),
});
export type ScheduleAppointmentInput = z.input<typeof scheduleAppointmentInput>;

/** A move: the new start, the length (omitted: as before) and why. */
export const rescheduleAppointmentInput = z.object({
  appointmentUid: uid(),
  startsAt: unixSeconds(),
  durationMinutes: int4().optional(),
  reason: z.string(),
});
export type RescheduleAppointmentInput = z.input<typeof rescheduleAppointmentInput>;

export const cancelAppointmentInput = z.object({ appointmentUid: uid(), reason: z.string() });
export type CancelAppointmentInput = z.input<typeof cancelAppointmentInput>;
