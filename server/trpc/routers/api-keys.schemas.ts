/** Inputs of the API keys procedures, shared by the router and the portal's form (zod and server/wire only). */
import { z } from "zod";
import { PERMISSIONS } from "@/server/auth/permissions";
import { text, uid } from "@/server/wire/schemas";
import { ownMessage } from "@/server/wire/zod-messages";

/** The External Pharmacy API's permissions, by their spec names. */
export const PHARMACY_KEY_PERMISSIONS = PERMISSIONS.PHARMACY;

export const createApiKeyInput = z.object({
  displayName: text(200),
  permissions: z.array(z.enum(PHARMACY_KEY_PERMISSIONS)).refine((permissions) => permissions.length > 0, ownMessage("apiKeys.choosePermission")),
  /** The key's pharmacy: a group pharmacist names one of the group's (or sets groupWide). */
  pharmacyUid: uid().optional(),
  /** A key of the whole pharmacy group (group pharmacists only). */
  groupWide: z.boolean().default(false),
});
export type CreateApiKeyInput = z.input<typeof createApiKeyInput>;

export const revokeApiKeyInput = z.object({ keyUid: uid() });
