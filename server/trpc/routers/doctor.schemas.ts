/** Inputs of the doctors' workspace procedures, shared by the router and the forms (zod and server/wire only). */
import { z } from "zod";
import type { ErrorKey } from "@/i18n/error-text";
import { DOSAGE_INSTRUCTIONS_MAX } from "@/server/domain/prescriptions/dosage-limits";
import { clearableText, uid, unixSeconds } from "@/server/wire/schemas";
import { ownMessage } from "@/server/wire/zod-messages";

export const requestInput = z.object({ prescriptionUid: uid() });

/**
 * Signing: outside the sandbox with the doctor's own factor for this one signature at the trust
 * service (a one-time password or a PIN, as their credential asks; checked by the domain).
 */
export const signInput = z.object({
  prescriptionUid: uid(),
  otp: clearableText(64),
  pin: clearableText(64),
});
export type SignInput = z.input<typeof signInput>;

/**
 * A Sign centre batch: the prescriptions chosen, the batch's id (made by the page, to ask its
 * progress meanwhile) and, outside the sandbox, the one factor that authorises them all.
 */
export const signBatchInput = z.object({
  prescriptionUids: z
    .array(uid())
    .refine((uids) => uids.length > 0, ownMessage("prescriptions.batch.noneChosen"))
    .refine((uids) => uids.length <= 100, ownMessage("prescriptions.batch.tooMany", { max: "100" })),
  batchUid: z.string().uuid(),
  otp: clearableText(64),
  pin: clearableText(64),
});
export type SignBatchInput = z.input<typeof signBatchInput>;

export const batchProgressInput = z.object({ batchUid: z.string().uuid() });

/** The doctor's user id at the trust service, to list their credentials there. */
export const findCredentialsInput = z.object({ userId: clearableText(200) });
export type FindCredentialsInput = z.input<typeof findCredentialsInput>;

/** The credential to link as the doctor's own (its CSC credentialID). */
export const linkCredentialInput = z.object({ credentialId: clearableText(200) });
export type LinkCredentialInput = z.input<typeof linkCredentialInput>;

/** A doctor's text: required (the message says what it is for), at most 2000 characters. */
const doctorText = (required: ErrorKey) =>
  z
    .string()
    .trim()
    .refine((text) => text.length > 0, ownMessage(required))
    .refine((text) => text.length <= 2000, ownMessage("fields.atMostCharacters", { max: "2000" }));

export const declineInput = z.object({
  prescriptionUid: uid(),
  reason: doctorText("doctor.declineReasonRequired"),
});
export type DeclineInput = z.input<typeof declineInput>;

export const holdInput = z.object({
  prescriptionUid: uid(),
  note: doctorText("doctor.holdNoteRequired"),
});
export type HoldInput = z.input<typeof holdInput>;

export const completeConsultationInput = z.object({ queueUid: uid() });

/** The statistics' range, Unix seconds, both inclusive; at most ten years. */
export const statisticsInput = z
  .object({ from: unixSeconds(), to: unixSeconds() })
  .refine((r) => r.from <= r.to, { path: ["to"], ...ownMessage("doctor.endBeforeStart") })
  .refine((r) => r.to - r.from <= 3660 * 24 * 3600, { path: ["from"], ...ownMessage("doctor.rangeTooLong") });
export type StatisticsInput = z.input<typeof statisticsInput>;

/** The dosage instructions the doctor confirms or edits per line before signing (each required). */
export const setDosageInput = z.object({
  prescriptionUid: uid(),
  lines: z
    .array(
      z.object({
        lineUid: uid(),
        dosage: z
          .string()
          .trim()
          .refine((text) => text.length > 0, ownMessage("prescriptions.dosage.required"))
          .refine((text) => text.length <= DOSAGE_INSTRUCTIONS_MAX, ownMessage("fields.atMostCharacters", { max: String(DOSAGE_INSTRUCTIONS_MAX) })),
      }),
    )
    .min(1)
    .max(100),
});
export type SetDosageInput = z.input<typeof setDosageInput>;

/** The doctor's own choice: e-mail me when new requests wait (docs/decisions/prescriptions.md#new-request-e-mails-to-doctors). */
export const requestNoticesInput = z.object({ enabled: z.boolean() });
export type RequestNoticesInput = z.input<typeof requestNoticesInput>;
