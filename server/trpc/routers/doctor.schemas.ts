/** Inputs of the doctors' workspace procedures, shared by the router and the forms (zod and server/wire only). */
import { z } from "zod";
import { uid, unixSeconds } from "@/server/wire/schemas";

export const requestInput = z.object({ prescriptionUid: uid() });

export const declineInput = z.object({
  prescriptionUid: uid(),
  reason: z.string().trim().min(1, "Give the reason for declining.").max(2000, "At most 2000 characters."),
});
export type DeclineInput = z.input<typeof declineInput>;

export const holdInput = z.object({
  prescriptionUid: uid(),
  note: z.string().trim().min(1, "Say what is needed before you can decide.").max(2000, "At most 2000 characters."),
});
export type HoldInput = z.input<typeof holdInput>;

export const completeConsultationInput = z.object({ queueUid: uid() });

/** The statistics' range, Unix seconds, both inclusive; at most ten years. */
export const statisticsInput = z
  .object({ from: unixSeconds(), to: unixSeconds() })
  .refine((r) => r.from <= r.to, { path: ["to"], message: "The end must not be before the start." })
  .refine((r) => r.to - r.from <= 3660 * 24 * 3600, { path: ["from"], message: "Choose a range of at most ten years." });
export type StatisticsInput = z.input<typeof statisticsInput>;
