import { z } from "zod";
import { isCountryCode } from "@/server/domain/countries";

/** Pharmacy.address: a postal address with an ISO 3166-1 country code (imports no server code: forms use it too). */
export const pharmacyAddressSchema = z.object({
  line1: z.string().trim().min(1, "This field may not be blank.").max(200),
  line2: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((v) => v || undefined),
  postal_code: z.string().trim().min(1, "This field may not be blank.").max(20),
  city: z.string().trim().min(1, "This field may not be blank.").max(100),
  country: z
    .string()
    .trim()
    .transform((v) => v.toUpperCase())
    .refine(isCountryCode, "Enter a 2-letter ISO country code, e.g. DE."),
});
export type PharmacyAddress = z.output<typeof pharmacyAddressSchema>;
