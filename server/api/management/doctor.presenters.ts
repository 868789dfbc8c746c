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
  // What the doctor's prescriptions name of them besides the name (set in the admin tool; docs/decisions/prescriptions.md#the-prescription-document).
  professional_title: z.string().nullable().describe("e.g. Fachärztin für Allgemeinmedizin"),
  practice_address: z
    .object({
      name: z.string().nullable(),
      street: z.string().nullable(),
      postal_code: z.string().nullable(),
      city: z.string().nullable(),
      country: z.string().nullable().describe("ISO 3166-1 alpha-2"),
    })
    .describe("The practice the prescriptions name; each part null when not set"),
  phone: z.string().nullable(),
  prescription_email: z.string().nullable().describe("The e-mail the prescriptions show; null: they show email"),
  identification: z
    .object({ type: z.string().nullable(), value: z.string() })
    .nullable()
    .describe("e.g. {type: LANR, value: 123456789}; null when none is set"),
  // Set by the admin team in the Doctors section (docs/decisions/admin-tool.md#the-doctors-section).
  minutes_to_respond: z.number().int().nullable().describe("How long a request may wait for this doctor before the admin home flags it, in minutes; null: never flagged"),
  can_sign_prescriptions: z.boolean().describe("The doctor may sign prescriptions with a qualified electronic signature (the same right as can_sign_qes)"),
  can_see_all_prescriptions: z
    .boolean()
    .describe("false: the doctor is offered only unassigned requests of their assigned questionnaires, and those assigned to them"),
  assigned_questionnaire_uids: z.array(z.string()).describe("The questionnaires assigned to the doctor (used while can_see_all_prescriptions is false)"),
  active: z.boolean().describe("false: the doctor is deactivated (cannot sign in or decide, gets no new requests; doctor_uid of a new order naming them is refused)"),
});

/** A doctor as presentDoctor needs it: the row with its assigned questionnaires. */
export type DoctorWithQuestionnaires = Doctor & { questionnaires: { questionnaireId: string }[] };

export const doctorStatisticsSchema = z.object({
  doctor_uid: z.string(),
  from: unixField(),
  to: unixField(),
  prescriptions: z.object({ signed: z.number().int(), declined: z.number().int(), pending: z.number().int() }),
  consultations: z.object({ completed: z.number().int(), average_duration_minutes: z.number().nullable() }),
});

/** A doctor as the list shows it: {uid, display_name} as everywhere else, and what an integrator matches or needs. */
export function presentDoctor(doctor: DoctorWithQuestionnaires): z.infer<typeof doctorSchema> {
  return {
    uid: doctor.id,
    display_name: doctor.displayName,
    email: doctor.email,
    can_sign_qes: doctor.canSignQes,
    created_at: unix(doctor.createdAt),
    professional_title: doctor.professionalTitle,
    practice_address: {
      name: doctor.practiceName,
      street: doctor.practiceStreet,
      postal_code: doctor.practicePostalCode,
      city: doctor.practiceCity,
      country: doctor.practiceCountry,
    },
    phone: doctor.phone,
    prescription_email: doctor.prescriptionEmail,
    identification: doctor.identificationValue ? { type: doctor.identificationType, value: doctor.identificationValue } : null,
    minutes_to_respond: doctor.minutesToRespond,
    can_sign_prescriptions: doctor.canSignQes,
    can_see_all_prescriptions: doctor.canSeeAllPrescriptions,
    assigned_questionnaire_uids: doctor.questionnaires.map((q) => q.questionnaireId),
    active: doctor.deactivatedAt === null,
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
