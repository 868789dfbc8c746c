/** The appointment lists' wire shapes: Unix seconds (UTC), statuses and recipient roles as the events spell them. */
import type { AppointmentRow } from "@/server/domain/meetings/appointment-queries";
import { unix, unixOrNull } from "@/server/wire/format";
import { dateOfBirth, patientName, type PatientRow } from "./doctor.presenters";

export function presentAppointment(a: AppointmentRow) {
  const startsAt = a.startsAt.getTime();
  return {
    uid: a.id,
    status: a.status ?? "",
    startsAt: unix(a.startsAt),
    endsAt: unixOrNull(a.endsAt),
    durationMinutes: a.endsAt ? Math.round((a.endsAt.getTime() - startsAt) / 60_000) : null,
    doctor: { uid: a.doctor.id, name: a.doctor.displayName },
    patient: { uid: a.patient.id, name: patientName(a.patient), email: a.patient.email },
    cancelReason: a.cancelReason,
    rebookedFrom: a.rebookedFrom ? { uid: a.rebookedFrom.id, startsAt: unix(a.rebookedFrom.startsAt) } : null,
    rebookedAs: a.rebookedAs ? { uid: a.rebookedAs.id, startsAt: unix(a.rebookedAs.startsAt) } : null,
    reminders: a.reminders.map((r) => ({
      recipientRole: r.recipientRole,
      minutesBefore: Math.round((startsAt - r.dueAt.getTime()) / 60_000),
      dueAt: unix(r.dueAt),
      sentAt: unixOrNull(r.sentAt),
    })),
  };
}

export const presentPatientChoice = (p: PatientRow & { id: string }) => ({ uid: p.id, name: patientName(p), email: p.email ?? null, dateOfBirth: dateOfBirth(p) });
