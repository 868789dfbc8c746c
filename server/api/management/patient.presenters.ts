import type { PatientProfileDetail } from "@/server/domain/patients/queries";
import { isoDateOrNull, unix } from "@/server/wire/format";

/**
 * The patient profile (G2: {uid, data: {display_name, email, date_of_birth}}), with the names it
 * shows, its links to shops as their customer and its profile field values.
 */
export function presentPatientProfile(profile: PatientProfileDetail) {
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
