/**
 * The admin tool: the organisation's Management and Public API keys and its telemedicine providers
 * (connect, name and identifier, key, settings), over the same domain functions as the Management
 * API. Always the admin's organisation.
 */
import {
  createOrganisationApiKey,
  listOrganisationApiKeys,
  revokeOrganisationApiKey,
  type OrganisationApiKey,
} from "@/server/domain/api-keys/organisation-keys";
import {
  changeTelemedicineProviderIdentity,
  changeTelemedicineProviderSettings,
  connectTelemedicineProvider,
  disconnectTelemedicineProvider,
  listTelemedicineProvidersWithKeys,
  rotateTelemedicineProviderKey,
  TELEMEDICINE_PROVIDER_KEY_PERMISSIONS,
  type IssuedProviderKey,
} from "@/server/domain/telemedicine/providers";
import { adminProcedure, router } from "@/server/trpc/init";
import { unix, unixOrNull } from "@/server/wire/format";
import {
  changeProviderInput,
  connectProviderInput,
  createAdminApiKeyInput,
  providerUidInput,
  revokeAdminApiKeyInput,
  saveProviderSettingsInput,
} from "./admin.schemas";

const presentKey = (key: OrganisationApiKey) => ({
  uid: key.id,
  family: key.family,
  displayName: key.displayName,
  prefix: key.prefix,
  permissions: key.permissions,
  createdBy: key.createdBy ? { uid: key.createdBy.id, name: key.createdBy.displayName, deactivated: key.createdBy.deactivatedAt !== null } : null,
  createdAt: unix(key.createdAt),
  lastUsedAt: unixOrNull(key.lastUsedAt),
});

export const adminApiKeysRouter = router({
  list: adminProcedure.query(async ({ ctx }) => (await listOrganisationApiKeys(ctx.scope.organisationId)).map(presentKey)),

  /** The plaintext key is in this response only. */
  create: adminProcedure.input(createAdminApiKeyInput).mutation(async ({ ctx, input }) => {
    const { key, plaintext } = await createOrganisationApiKey(ctx.scope.organisationId, { ...input, createdById: ctx.user.id });
    return { ...presentKey(key), apiKey: plaintext };
  }),

  revoke: adminProcedure.input(revokeAdminApiKeyInput).mutation(async ({ ctx, input }) => {
    await revokeOrganisationApiKey(ctx.scope.organisationId, input.keyUid, { type: "USER", userId: ctx.user.id });
    return { revoked: true };
  }),
});

/** A key just issued to a provider: its plaintext is in this response only. */
const presentIssuedKey = ({ key, plaintext }: IssuedProviderKey) => ({ keyUid: key.id, prefix: key.prefix, permissions: key.permissions, apiKey: plaintext });

export const adminTelemedicineProvidersRouter = router({
  list: adminProcedure.query(async ({ ctx }) =>
    (await listTelemedicineProvidersWithKeys(ctx.scope.organisationId)).map((p) => ({
      uid: p.id,
      displayName: p.displayName,
      identifier: p.identifier,
      allowNonQesSignedPrescriptions: p.allowNonQesSignedPrescriptions,
      createdAt: unix(p.createdAt),
      // Null: disconnected (no active key).
      key: p.apiKeys[0] ? { uid: p.apiKeys[0].id, prefix: p.apiKeys[0].prefix, createdAt: unix(p.apiKeys[0].createdAt), lastUsedAt: unixOrNull(p.apiKeys[0].lastUsedAt) } : null,
    })),
  ),

  /** What a provider's key may do (shown on the connect form). */
  keyPermissions: adminProcedure.query(() => [...TELEMEDICINE_PROVIDER_KEY_PERMISSIONS]),

  connect: adminProcedure.input(connectProviderInput).mutation(async ({ ctx, input }) => {
    const { provider, issued } = await connectTelemedicineProvider(ctx.scope.organisationId, ctx.user.id, input);
    return { uid: provider.id, displayName: provider.displayName, identifier: provider.identifier, ...presentIssuedKey(issued) };
  }),

  /** Name and identifier; `changed` false when both were as saved already. */
  change: adminProcedure.input(changeProviderInput).mutation(async ({ ctx, input }) => {
    const { changed, provider } = await changeTelemedicineProviderIdentity(ctx.scope.organisationId, ctx.user.id, input.providerUid, {
      displayName: input.displayName,
      identifier: input.identifier,
    });
    return { changed, uid: provider.id, displayName: provider.displayName, identifier: provider.identifier };
  }),

  rotateKey: adminProcedure
    .input(providerUidInput)
    .mutation(async ({ ctx, input }) => presentIssuedKey(await rotateTelemedicineProviderKey(ctx.scope.organisationId, ctx.user.id, input.providerUid))),

  disconnect: adminProcedure
    .input(providerUidInput)
    .mutation(async ({ ctx, input }) => disconnectTelemedicineProvider(ctx.scope.organisationId, ctx.user.id, input.providerUid)),

  saveSettings: adminProcedure.input(saveProviderSettingsInput).mutation(async ({ ctx, input }) =>
    changeTelemedicineProviderSettings(
      ctx.scope.organisationId,
      input.providerUid,
      { allowNonQesSignedPrescriptions: input.allowNonQesSignedPrescriptions },
      { type: "USER", userId: ctx.user.id },
    ),
  ),
});
