import { z } from "zod";
import { PATIENT_FIELD_SOURCES } from "@/server/domain/patients/profile-fields";
import { emailAddress, text, uid } from "@/server/wire/schemas";

/** At most this many profile fields in one request. */
export const MAX_FIELDS_PER_REQUEST = 100;

/** One profile field to set (G19): its key, its value (checked against the field's type by the domain), who set it. */
const fieldSchema = z.object({
  field: text(100),
  value: z.union([z.string(), z.number(), z.boolean()]),
  source: z.string().trim().toLowerCase().pipe(z.enum(PATIENT_FIELD_SOURCES)).meta({ enum: [...PATIENT_FIELD_SOURCES] }).optional(),
});

export const createPatientSchema = z.object({
  shop_uid: uid(),
  shop_customer_id: text(),
  email: emailAddress().nullable().optional(),
  fields: z.array(fieldSchema).max(MAX_FIELDS_PER_REQUEST).optional(),
});

export const patientByEmailQuery = z.object({ email: emailAddress() });
