/** Inputs of the admin tool's pharmacy and group procedures (zod, server/wire and the address schema). */
import { z } from "zod";
import { pharmacyAddressSchema } from "@/server/domain/pharmacies/address";
import { clearableText, text, uid } from "@/server/wire/schemas";

const email = z
  .string()
  .trim()
  .max(254)
  .transform((v) => v || null)
  .pipe(z.email("Enter a valid e-mail address.").nullable())
  .nullable()
  .default(null);

/** The connector as the form sends it; headers omitted keeps the stored ones, {} removes them. */
const connector = z
  .object({
    url: z.string().trim().min(1).max(2048),
    headers: z.record(z.string(), z.string()).optional(),
    timeoutMs: z.number().int().min(100).max(60_000).optional(),
  })
  .nullable()
  .default(null);

export const pharmacyFieldsInput = z.object({
  displayName: text(200),
  email,
  address: pharmacyAddressSchema.nullable().default(null),
  groupUid: uid().nullable().default(null),
  locationId: clearableText(100),
  systemConnector: connector,
});
export type PharmacyFieldsInput = z.input<typeof pharmacyFieldsInput>;

export const pharmacyUidInput = z.object({ pharmacyUid: uid() });
export const changePharmacyInput = pharmacyFieldsInput.extend({ pharmacyUid: uid() });

export const createGroupInput = z.object({ displayName: text(200) });
export const renameGroupInput = z.object({ groupUid: uid(), displayName: text(200) });
