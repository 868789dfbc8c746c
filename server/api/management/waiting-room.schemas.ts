import { z } from "zod";
import { uid } from "@/server/wire/schemas";

/** visit_reason: free text for the doctor, at most VISIT_REASON_MAX characters; blank or null is none. */
export const VISIT_REASON_MAX = 1000;

export const registerBody = z.object({
  shop_uid: uid(),
  patient_profile_uid: uid(),
  preferred_doctor_uid: uid().nullable().optional(),
  visit_reason: z.string().trim().max(VISIT_REASON_MAX).nullable().optional(),
});
