/**
 * The admin tool: the organisation's Management and Public API keys and its telemedicine providers'
 * settings, over the same domain functions as the Management API. Always the admin's organisation.
 */
import {
  createOrganisationApiKey,
  listOrganisationApiKeys,
  revokeOrganisationApiKey,
  type OrganisationApiKey,
} from "@/server/domain/api-keys/organisation-keys";
import { changeTelemedicineProviderSettings, listTelemedicineProviders } from "@/server/domain/telemedicine/providers";
import { adminProcedure, router } from "@/server/trpc/init";
import { unix, unixOrNull } from "@/server/wire/format";
import { createAdminApiKeyInput, revokeAdminApiKeyInput, saveProviderSettingsInput } from "./admin.schemas";

const presentKey = (key: OrganisationApiKey) => ({
  uid: key.id,
  family: key.family,
  displayName: key.displayName,
  prefix: key.prefix,
  permissions: key.permissions,
  createdBy: key.createdBy ? { uid: key.createdBy.id, name: key.createdBy.displayName } : null,
  createdAt: unix(key.createdAt),
  lastUsedAt: unixOrNull(key.lastUsedAt),
});

export const adminApiKeysRouter = router({
  list: adminProcedure.query(async ({ ctx }) => (await listOrganisationApiKeys(ctx.user.organisationId)).map(presentKey)),

  /** The plaintext key is in this response only. */
  create: adminProcedure.input(createAdminApiKeyInput).mutation(async ({ ctx, input }) => {
    const { key, plaintext } = await createOrganisationApiKey(ctx.user.organisationId, { ...input, createdById: ctx.user.id });
    return { ...presentKey(key), apiKey: plaintext };
  }),

  revoke: adminProcedure.input(revokeAdminApiKeyInput).mutation(async ({ ctx, input }) => {
    await revokeOrganisationApiKey(ctx.user.organisationId, input.keyUid, { type: "USER", userId: ctx.user.id });
    return { revoked: true };
  }),
});

export const adminTelemedicineProvidersRouter = router({
  list: adminProcedure.query(async ({ ctx }) =>
    (await listTelemedicineProviders(ctx.user.organisationId)).map((p) => ({
      uid: p.id,
      displayName: p.displayName,
      identifier: p.identifier,
      allowNonQesSignedPrescriptions: p.allowNonQesSignedPrescriptions,
      createdAt: unix(p.createdAt),
    })),
  ),

  saveSettings: adminProcedure.input(saveProviderSettingsInput).mutation(async ({ ctx, input }) =>
    changeTelemedicineProviderSettings(ctx.user.organisationId, input.providerUid, {
      allowNonQesSignedPrescriptions: input.allowNonQesSignedPrescriptions,
    }),
  ),
});
