/** Inputs of the admin tool's payment provider procedures (the settings section's forms use the same schemas). */
import { z } from "zod";
import { uid } from "@/server/wire/schemas";

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((v) => v || null)
    .nullable()
    .default(null);

/** The API endpoint (empty: Mollie's) and the API key (empty: keep the stored one). */
export const savePaymentConnectionInput = z.object({
  apiEndpoint: optionalText(2048),
  apiKey: optionalText(200),
});

export const setPharmacyOrganizationInput = z.object({
  pharmacyUid: uid(),
  /** Empty clears it. */
  mollieOrganizationId: optionalText(100),
});

export const payoutUidInput = z.object({ payoutUid: uid() });
