/** Inputs of the admin tool's doctor procedures, shared with the doctor's form (zod and server/wire only). */
import { z } from "zod";
import { isCountryCode } from "@/server/domain/countries";
import { clearableText, emailAddress, int4, text, uid } from "@/server/wire/schemas";
import { ownMessage } from "@/server/wire/zod-messages";

export const doctorUidInput = z.object({ doctorUid: uid() });

/** An optional field of the form: empty is null; a value passes `check` (its message by key). */
const optional = (max: number, check?: { test: (value: string) => boolean; message: ReturnType<typeof ownMessage> }) =>
  check ? clearableText(max).refine((value) => value === null || check.test(value), check.message) : clearableText(max);

const digits = (value: string) => value.match(/[0-9]/g)?.length ?? 0;
/** A telephone number as people write it: digits, spaces, + ( ) / . -; 6 to 20 digits. */
const isPhone = (value: string) => /^\+?[0-9 ()/.-]+$/.test(value) && digits(value) >= 6 && digits(value) <= 20;

/**
 * A doctor's prescriber details (Doctor, shown on each prescription): all optional here; signing
 * refuses a prescription whose prescriber lacks a title, the practice address or the telephone
 * (server/domain/prescriptions/completeness.ts). A LANR (lebenslange Arztnummer) has 9 digits.
 */
const prescriberDetailsShape = {
  professionalTitle: optional(200),
  practiceName: optional(200),
  practiceStreet: optional(200),
  practicePostalCode: optional(20, { test: (v) => /^[\p{L}\p{N} -]{2,20}$/u.test(v), message: ownMessage("doctors.postalCode") }),
  practiceCity: optional(100),
  practiceCountry: clearableText(2)
    .transform((v) => v?.toUpperCase() ?? null)
    .refine((v) => v === null || isCountryCode(v), ownMessage("fields.countryCode")),
  phone: optional(40, { test: isPhone, message: ownMessage("doctors.phone") }),
  prescriptionEmail: optional(254, { test: (v) => emailAddress().safeParse(v).success, message: ownMessage("doctors.email") }),
  identificationType: optional(40, { test: (v) => /^[\p{L}\p{N} .-]+$/u.test(v), message: ownMessage("doctors.identificationType") }),
  identificationValue: optional(40),
};

/** The identification's type and value go together; a LANR's value is 9 digits. */
function checkIdentification(input: { identificationType: string | null; identificationValue: string | null }, ctx: z.RefinementCtx): void {
  if (input.identificationValue && !input.identificationType) {
    ctx.addIssue({ code: "custom", path: ["identificationType"], ...ownMessage("doctors.identificationTypeRequired") });
  }
  if (input.identificationType && !input.identificationValue) {
    ctx.addIssue({ code: "custom", path: ["identificationValue"], ...ownMessage("doctors.identificationValueRequired") });
  }
  if (input.identificationType?.toUpperCase() === "LANR" && input.identificationValue && !/^[0-9]{9}$/.test(input.identificationValue)) {
    ctx.addIssue({ code: "custom", path: ["identificationValue"], ...ownMessage("doctors.lanrDigits") });
  }
}

export const prescriberDetailsInput = z.object(prescriberDetailsShape).superRefine(checkIdentification);
export type PrescriberDetailsInput = z.input<typeof prescriberDetailsInput>;

export const changePrescriberDetailsInput = z.object({ doctorUid: uid(), ...prescriberDetailsShape }).superRefine(checkIdentification);

/** Minutes to respond: empty is none; else a whole number of minutes from 1 to a year's. */
export const MINUTES_TO_RESPOND_MAX = 525_600;

/**
 * A doctor's settings in the Doctors section (server/domain/doctors/doctor-settings.ts): the form's
 * text as typed (minutes to respond a string, empty for none), checkboxes, the questionnaires chosen.
 */
export const doctorSettingsInput = z.object({
  name: text(200),
  email: optional(254, { test: (v) => emailAddress().safeParse(v).success, message: ownMessage("doctors.email") }),
  minutesToRespond: clearableText(7)
    .refine((v) => v === null || (/^[0-9]+$/.test(v) && Number(v) >= 1 && Number(v) <= MINUTES_TO_RESPOND_MAX), ownMessage("doctors.minutesToRespond"))
    .transform((v) => (v === null ? null : Number(v))),
  canSignQes: z.boolean(),
  canSeeAllPrescriptions: z.boolean(),
  questionnaireUids: z.array(uid()).max(200),
});
export type DoctorSettingsInput = z.input<typeof doctorSettingsInput>;

/** The procedure's input: the form's values as parsed (minutes a number or null). */
export const changeDoctorSettingsInput = z.object({
  doctorUid: uid(),
  ...doctorSettingsInput.shape,
  minutesToRespond: int4({ min: 1, max: MINUTES_TO_RESPOND_MAX }).nullable(),
});

/** Requeue a doctor's pending prescriptions: to the pool (null) or to a colleague. */
export const requeueInput = z.object({ doctorUid: uid(), toDoctorUid: uid().nullable() });

export const setDoctorActiveInput = z.object({ doctorUid: uid(), active: z.boolean() });
