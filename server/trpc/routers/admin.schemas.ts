/** Inputs of the admin tool's procedures, shared by the routers and the forms (zod and server/wire only). */
import { z } from "zod";
import { PERMISSIONS } from "@/server/auth/permissions";
import { text, uid } from "@/server/wire/schemas";
import { ownMessage } from "@/server/wire/zod-messages";

/** The permission names an admin may pick, per family (the spec's, plus patient:write and patient_data). */
export const ADMIN_KEY_PERMISSIONS = { MANAGEMENT: PERMISSIONS.MANAGEMENT, PUBLIC: PERMISSIONS.PUBLIC } as const;

export const createAdminApiKeyInput = z.discriminatedUnion("family", [
  z.object({
    family: z.literal("MANAGEMENT"),
    displayName: text(200),
    permissions: z.array(z.enum(PERMISSIONS.MANAGEMENT)).refine((permissions) => permissions.length > 0, ownMessage("apiKeys.choosePermission")),
  }),
  z.object({
    family: z.literal("PUBLIC"),
    displayName: text(200),
    permissions: z.array(z.enum(PERMISSIONS.PUBLIC)).refine((permissions) => permissions.length > 0, ownMessage("apiKeys.choosePermission")),
  }),
]);
export type CreateAdminApiKeyInput = z.input<typeof createAdminApiKeyInput>;

export const revokeAdminApiKeyInput = z.object({ keyUid: uid() });

export const saveProviderSettingsInput = z.object({ providerUid: uid(), allowNonQesSignedPrescriptions: z.boolean() });

export const connectProviderInput = z.object({ displayName: text(200), identifier: text(100) });
/** A provider's new name and identifier (both as on connecting). */
export const changeProviderInput = connectProviderInput.extend({ providerUid: uid() });
export const providerUidInput = z.object({ providerUid: uid() });
