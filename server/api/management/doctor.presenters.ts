import type { Doctor } from "@/server/db/generated/client";
import type { DoctorStatistics } from "@/server/domain/doctors/queries";
import { z } from "zod";
import { unix, unixField } from "@/server/wire/format";

export const doctorSchema = z.object({
  uid: z.string(),
  display_name: z.string(),
  email: z.string().nullable(),
  can_sign_qes: z.boolean(),
  created_at: unixField(),
});

export const doctorStatisticsSchema = z.object({
  doctor_uid: z.string(),
  from: unixField(),
  to: unixField(),
  prescriptions: z.object({ signed: z.number().int(), declined: z.number().int(), pending: z.number().int() }),
  consultations: z.object({ completed: z.number().int(), average_duration_minutes: z.number().nullable() }),
});

/** A doctor as the list shows it: {uid, display_name} as everywhere else, and what an integrator matches or needs. */
export function presentDoctor(doctor: Doctor): z.infer<typeof doctorSchema> {
  return {
    uid: doctor.id,
    display_name: doctor.displayName,
    email: doctor.email,
    can_sign_qes: doctor.canSignQes,
    created_at: unix(doctor.createdAt),
  };
}

export function presentDoctorStatistics(stats: DoctorStatistics): z.infer<typeof doctorStatisticsSchema> {
  return {
    doctor_uid: stats.doctorId,
    from: unix(stats.from),
    to: unix(stats.to),
    prescriptions: { signed: stats.signed, declined: stats.declined, pending: stats.pending },
    consultations: { completed: stats.consultationsCompleted, average_duration_minutes: stats.averageConsultationMinutes },
  };
}
