/** Inputs of the admin tool's payment provider procedures (the settings section's forms use the same schemas). */
import { z } from "zod";
import { clearableText, uid } from "@/server/wire/schemas";

/** The API endpoint (empty: Mollie's) and the API key (empty: keep the stored one). */
export const savePaymentConnectionInput = z.object({
  apiEndpoint: clearableText(2048),
  apiKey: clearableText(200),
});

export const setPharmacyOrganizationInput = z.object({
  pharmacyUid: uid(),
  /** Empty clears it. */
  mollieOrganizationId: clearableText(100),
});

export const payoutUidInput = z.object({ payoutUid: uid() });
