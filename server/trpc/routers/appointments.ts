/**
 * Scheduled appointments, one implementation mounted under the admin tool (admin.appointments: any
 * doctor of the organisation, the admin picks one) and the doctors' workspace (doctor.appointments:
 * the doctor's own; another doctor's appointment is not found). The same domain functions for both
 * (scheduleAppointment, rescheduleAppointment, cancelAppointment), so the events, reminders and
 * meeting e-mails are those documented; the door's scope says whose appointments the caller reaches
 * (DoctorsScope), and each change is audited as the signed-in user's.
 */
import { errorText } from "@/i18n/error-text";
import { ValidationError } from "@/server/domain/errors";
import { appointmentDoctors, listAppointments } from "@/server/domain/meetings/appointment-queries";
import { cancelAppointment } from "@/server/domain/meetings/cancel-appointment";
import { rescheduleAppointment } from "@/server/domain/meetings/reschedule-appointment";
import { scheduleAppointment, type AppointmentCaller } from "@/server/domain/meetings/schedule-appointment";
import { searchPatients } from "@/server/domain/patients/queries";
import { router, type DoctorsProcedure, type DoctorsScope } from "@/server/trpc/init";
import { presentAppointment, presentPatientChoice } from "./appointments.presenters";
import {
  cancelAppointmentInput,
  findPatientsInput,
  listAppointmentsInput,
  rescheduleAppointmentInput,
  scheduleAppointmentInput,
} from "./appointments.schemas";

const fromUnix = (seconds: number) => new Date(seconds * 1000);

/** The signed-in user, as the audit log names them, within the doctors their door reaches. */
const callerOf = (ctx: { user: { id: string }; scope: DoctorsScope }): AppointmentCaller => ({
  actor: { type: "USER", userId: ctx.user.id },
  ...(ctx.scope.doctorId ? { doctorId: ctx.scope.doctorId } : {}),
});

/** The doctor of a new appointment: the one named, else the doctor booking; an administrator must name one. */
function bookedDoctor(scope: DoctorsScope, doctorUid: string | undefined): string {
  const doctorId = doctorUid ?? scope.doctorId;
  if (!doctorId) throw ValidationError.field("doctor_uid", errorText("fields.required"));
  return doctorId;
}

export const appointmentsRouter = (procedure: DoctorsProcedure) =>
  router({
    list: procedure.input(listAppointmentsInput).query(async ({ ctx, input }) => {
      const range = { from: fromUnix(input.from), to: fromUnix(input.to), doctorId: input.doctorUid };
      const { items, more } = await listAppointments(ctx.scope.organisationId, range, callerOf(ctx));
      return { items: items.map(presentAppointment), more };
    }),

    /** Whom the caller may book for: an administrator the organisation's doctors, a doctor themselves. */
    doctors: procedure.query(async ({ ctx }) =>
      (await appointmentDoctors(ctx.scope.organisationId, callerOf(ctx))).map((d) => ({ uid: d.id, name: d.displayName })),
    ),

    /** The organisation's patients to book for, by a part of their name or e-mail. */
    patients: procedure.input(findPatientsInput).query(async ({ ctx, input }) =>
      (await searchPatients(ctx.scope.organisationId, input.search)).map(presentPatientChoice),
    ),

    schedule: procedure.input(scheduleAppointmentInput).mutation(async ({ ctx, input }) => {
      const appointment = await scheduleAppointment(
        ctx.scope.organisationId,
        {
          doctorId: bookedDoctor(ctx.scope, input.doctorUid),
          patientId: input.patientProfileUid,
          startsAt: fromUnix(input.startsAt),
          durationMinutes: input.durationMinutes,
          reminders: input.reminders.map((r) => ({ recipient_role: r.recipientRole, minutes_before: r.minutesBefore })),
        },
        callerOf(ctx),
      );
      return { uid: appointment.meetingId };
    }),

    /** The old appointment cancelled (with the reason) and a new one booked: events cancelled, then rebooked. */
    reschedule: procedure.input(rescheduleAppointmentInput).mutation(async ({ ctx, input }) => {
      const move = { startsAt: fromUnix(input.startsAt), durationMinutes: input.durationMinutes, reason: input.reason };
      const appointment = await rescheduleAppointment(ctx.scope.organisationId, input.appointmentUid, move, callerOf(ctx));
      return { uid: appointment.meetingId };
    }),

    /** changed false: it was cancelled already (nothing sent again). */
    cancel: procedure.input(cancelAppointmentInput).mutation(async ({ ctx, input }) => {
      const result = await cancelAppointment(ctx.scope.organisationId, input.appointmentUid, input.reason, callerOf(ctx));
      return { uid: result.meetingId, changed: result.changed };
    }),
  });
