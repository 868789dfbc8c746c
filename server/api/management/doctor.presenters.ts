import type { Doctor } from "@/server/db/generated/client";
import type { DoctorStatistics } from "@/server/domain/doctors/queries";
import { unix } from "@/server/wire/format";

/** A doctor as the list shows it: {uid, display_name} as everywhere else, and what an integrator matches or needs. */
export function presentDoctor(doctor: Doctor) {
  return {
    uid: doctor.id,
    display_name: doctor.displayName,
    email: doctor.email,
    can_sign_qes: doctor.canSignQes,
    created_at: unix(doctor.createdAt),
  };
}

export function presentDoctorStatistics(stats: DoctorStatistics) {
  return {
    doctor_uid: stats.doctorId,
    from: unix(stats.from),
    to: unix(stats.to),
    prescriptions: { signed: stats.signed, declined: stats.declined, pending: stats.pending },
    consultations: { completed: stats.consultationsCompleted, average_duration_minutes: stats.averageConsultationMinutes },
  };
}
