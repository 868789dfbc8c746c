import type { PatientProfileDetail } from "@/server/domain/patients/queries";
import { z } from "zod";
import { isoDateField, isoDateOrNull, unix, unixField } from "@/server/wire/format";

export const patientProfileSchema = z.object({
  uid: z.string(),
  data: z.object({
    display_name: z.string().nullable(),
    email: z.string().nullable(),
    date_of_birth: isoDateField().nullable(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
  }),
  shop_customers: z.array(
    z.object({ shop_uid: z.string(), shop_identifier: z.string(), shop_customer_id: z.string(), email: z.string().nullable() }),
  ),
  fields: z.array(
    z.object({ field: z.string(), display_name: z.string(), value: z.string(), source: z.string(), updated_at: unixField() }),
  ),
  created_at: unixField(),
  updated_at: unixField(),
});

export const patientCreatedSchema = z.object({ patient_profile_uid: z.string() });
export const patientIntentSchema = z.object({ return_code: z.string().describe('"VALID" (signed within 12 months), "EXPIRED" or "NOT_FOUND"') });

/**
 * The patient profile (G2: {uid, data: {display_name, email, date_of_birth}}), with the names it
 * shows, its links to shops as their customer and its profile field values.
 */
export function presentPatientProfile(profile: PatientProfileDetail): z.infer<typeof patientProfileSchema> {
  return {
    uid: profile.id,
    data: {
      display_name: profile.displayName,
      email: profile.email,
      date_of_birth: isoDateOrNull(profile.dateOfBirth),
      first_name: profile.firstName,
      last_name: profile.lastName,
    },
    shop_customers: profile.shopCustomers.map((c) => ({
      shop_uid: c.shopId,
      shop_identifier: c.shop.identifier,
      shop_customer_id: c.shopCustomerId,
      email: c.email,
    })),
    fields: profile.properties.map((p) => ({
      field: p.field.key,
      display_name: p.field.displayName,
      value: p.value,
      source: p.source,
      updated_at: unix(p.updatedAt),
    })),
    created_at: unix(profile.createdAt),
    updated_at: unix(profile.updatedAt),
  };
}
