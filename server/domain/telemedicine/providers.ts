import { errorText, type ErrorText } from "@/i18n/error-text";
import { database, type Tx } from "@/server/db/client";
import { isUniqueViolation } from "@/server/db/errors";
import type { Actor } from "@/server/domain/actor";
import { issueTelemedicineProviderKey, type OrganisationApiKey } from "@/server/domain/api-keys/organisation-keys";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError, ValidationError } from "@/server/domain/errors";

/**
 * The organisation's connected telemedicine providers. Connecting one, and issuing, rotating or
 * revoking its key, is the admin tool's (spec); the APIs read providers and switch their settings.
 * allowNonQesSignedPrescriptions is the switch the doctor-signing rule reads
 * (server/domain/prescriptions/decisions.ts).
 */

/**
 * What a provider's Management key may do: the Management operations a telemedicine platform calls
 * (the provider guides: order intake and its orders, prescriptions and external signing, patients
 * and their intent, doctors, the waiting room, wallet passes and their notifications, the catalogue
 * it orders from, its own provider settings to read). Not: product:write, questionnaire:write and
 * doctor_statistics:read (the organisation's own back office), wallet_pass:verify (the pharmacy's),
 * and telemedicine_provider:write — whether a provider may send non-QES prescriptions is the
 * organisation's decision, never the provider's own. docs/decisions/admin-tool.md#settings
 */
export const TELEMEDICINE_PROVIDER_KEY_PERMISSIONS = [
  "order:read",
  "order:write",
  "prescription:read",
  "prescription:external_sign",
  "product:read",
  "doctor:read",
  "patient:read",
  "patient:write",
  "waiting_room:read",
  "waiting_room:write",
  "wallet_pass_template:read",
  "wallet_pass:read",
  "wallet_pass:write",
  "wallet_pass_push_notification:write",
  "telemedicine_provider:read",
] as const;

const activeKeySelect = { where: { revokedAt: null }, select: { id: true, prefix: true, createdAt: true, lastUsedAt: true } } as const;

/** The organisation's providers, oldest first (the Management API's list). */
export async function listTelemedicineProviders(organisationId: string) {
  const db = await database();
  return db.telemedicineProvider.findMany({ where: { organisationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** The same, each with its active key (prefix and use, never the key): the admin tool's list. */
export async function listTelemedicineProvidersWithKeys(organisationId: string) {
  const db = await database();
  return db.telemedicineProvider.findMany({
    where: { organisationId },
    include: { apiKeys: { ...activeKeySelect, orderBy: { createdAt: "desc" } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

export type TelemedicineProviderSettings = { allowNonQesSignedPrescriptions: boolean };

export async function getTelemedicineProviderSettings(organisationId: string, providerId: string): Promise<TelemedicineProviderSettings> {
  const db = await database();
  const provider = await db.telemedicineProvider.findFirst({
    where: { id: providerId, organisationId },
    select: { allowNonQesSignedPrescriptions: true },
  });
  if (!provider) throw new NotFoundError();
  return provider;
}

/** The organisation condition is part of the update, so another organisation's provider changes nothing. */
export async function changeTelemedicineProviderSettings(
  organisationId: string,
  providerId: string,
  settings: TelemedicineProviderSettings,
  actor: Actor,
): Promise<TelemedicineProviderSettings> {
  const db = await database();
  await db.$transaction(async (tx) => {
    const provider = await tx.telemedicineProvider.findFirst({ where: { id: providerId, organisationId }, select: { displayName: true } });
    if (!provider) throw new NotFoundError();
    await tx.telemedicineProvider.update({
      where: { id: providerId },
      data: { allowNonQesSignedPrescriptions: settings.allowNonQesSignedPrescriptions },
    });
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "telemedicine_provider",
      entityId: providerId,
      action: "settings_changed",
      values: { name: provider.displayName, allowed: String(settings.allowNonQesSignedPrescriptions) },
      summary: `Telemedicine provider "${provider.displayName}": non-QES signed prescriptions ${settings.allowNonQesSignedPrescriptions ? "allowed" : "not allowed"}`,
      details: { allow_non_qes_signed_prescriptions: settings.allowNonQesSignedPrescriptions },
    });
  });
  return settings;
}

export type ProviderIdentity = { displayName: string; identifier: string };

/** A new key and its plaintext, shown only this once. */
export type IssuedProviderKey = { key: OrganisationApiKey; plaintext: string };

const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function checkedIdentity(input: ProviderIdentity): ProviderIdentity {
  const displayName = input.displayName.trim();
  const identifier = input.identifier.trim();
  const errors: Record<string, ErrorText[]> = {};
  if (!displayName) errors.displayName = [errorText("fields.notBlank")];
  else if (displayName.length > 200) errors.displayName = [errorText("fields.maxLength", { maximum: 200 })];
  if (!identifier) errors.identifier = [errorText("fields.notBlank")];
  else if (identifier.length > 100) errors.identifier = [errorText("fields.maxLength", { maximum: 100 })];
  else if (!IDENTIFIER.test(identifier)) errors.identifier = [errorText("telemedicine.identifierFormat")];
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { displayName, identifier };
}


const keyName = (provider: { displayName: string }) => `Telemedicine provider: ${provider.displayName}`;

async function issueKey(tx: Tx, organisationId: string, provider: { id: string; displayName: string }, userId: string) {
  return issueTelemedicineProviderKey(tx, organisationId, {
    providerId: provider.id,
    displayName: keyName(provider),
    permissions: TELEMEDICINE_PROVIDER_KEY_PERMISSIONS,
    createdById: userId,
  });
}

/**
 * Connects a provider: the provider and a Management key issued to it, in one transaction. The
 * identifier is unique in the organisation (the unique index decides, so two concurrent connects
 * of one identifier make one provider); a taken one is a field error, nothing written.
 */
export async function connectTelemedicineProvider(
  organisationId: string,
  userId: string,
  input: ProviderIdentity,
): Promise<{ provider: { id: string; displayName: string; identifier: string }; issued: IssuedProviderKey }> {
  const identity = checkedIdentity(input);
  const db = await database();
  try {
    return await db.$transaction(async (tx) => {
      const provider = await tx.telemedicineProvider.create({ data: { organisationId, ...identity } });
      const issued = await issueKey(tx, organisationId, provider, userId);
      await recordAuditEvent(tx, organisationId, { type: "USER", userId }, {
        entity: "telemedicine_provider",
        entityId: provider.id,
        action: "connected",
        summary: `Telemedicine provider "${provider.displayName}" (${provider.identifier}) connected; key ${issued.key.prefix}… issued`,
        values: { name: provider.displayName, identifier: provider.identifier, prefix: issued.key.prefix },
        details: { identifier: provider.identifier, api_key_uid: issued.key.id },
      });
      return { provider: { id: provider.id, displayName: provider.displayName, identifier: provider.identifier }, issued };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw ValidationError.field("identifier", errorText("telemedicine.identifierTaken"));
    throw error;
  }
}

/**
 * Changes a provider's name and identifier (the spec: "changing its name, identifier or key is done
 * in the admin tool"), under the provider's row lock, audited with the values before and after.
 * The identifier stays unique in the organisation: the unique index decides, so of two concurrent
 * changes to one identifier one wins and the other is the field error, nothing written. The uid is
 * the provider's stable handle; the Management API lists the identifier as it is now
 * (docs/decisions/admin-tool.md#the-admin-teams-doors). Its active key is renamed with it, so that
 * the API keys list names the provider as it is now; revoked keys keep the name they had.
 * Saving the values it has changes and records nothing.
 */
export async function changeTelemedicineProviderIdentity(
  organisationId: string,
  userId: string,
  providerId: string,
  input: ProviderIdentity,
): Promise<{ changed: boolean; provider: { id: string; displayName: string; identifier: string } }> {
  const identity = checkedIdentity(input);
  const db = await database();
  try {
    return await db.$transaction(async (tx) => {
      const before = await lockedProvider(tx, organisationId, providerId);
      if (before.displayName === identity.displayName && before.identifier === identity.identifier) return { changed: false, provider: before };
      const provider = await tx.telemedicineProvider.update({
        where: { id: before.id },
        data: identity,
        select: { id: true, displayName: true, identifier: true },
      });
      if (before.displayName !== provider.displayName) {
        await tx.apiKey.updateMany({ where: { telemedicineProviderId: provider.id, revokedAt: null }, data: { displayName: keyName(provider) } });
      }
      const changes = [
        before.displayName !== provider.displayName ? `name "${before.displayName}" → "${provider.displayName}"` : null,
        before.identifier !== provider.identifier ? `identifier ${before.identifier} → ${provider.identifier}` : null,
      ].filter(Boolean);
      await recordAuditEvent(tx, organisationId, { type: "USER", userId }, {
        entity: "telemedicine_provider",
        entityId: provider.id,
        action: "changed",
        summary: `Telemedicine provider "${provider.displayName}" changed: ${changes.join(", ")}`,
        values: { name: provider.displayName },
        details: {
          before: { display_name: before.displayName, identifier: before.identifier },
          after: { display_name: provider.displayName, identifier: provider.identifier },
        },
      });
      return { changed: true, provider };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw ValidationError.field("identifier", errorText("telemedicine.identifierTaken"));
    throw error;
  }
}

/** The provider, locked until the transaction ends (so two rotations or renames of one provider run one after the other). */
async function lockedProvider(tx: Tx, organisationId: string, providerId: string) {
  const [provider] = await tx.$queryRaw<{ id: string; displayName: string; identifier: string }[]>`
    SELECT "id", "displayName", "identifier" FROM "TelemedicineProvider" WHERE "id" = ${providerId} AND "organisationId" = ${organisationId} FOR UPDATE`;
  if (!provider) throw new NotFoundError();
  return provider;
}

async function revokeProviderKeys(tx: Tx, providerId: string): Promise<string[]> {
  const active = await tx.apiKey.findMany({ where: { telemedicineProviderId: providerId, revokedAt: null }, select: { id: true, prefix: true } });
  if (active.length > 0) await tx.apiKey.updateMany({ where: { id: { in: active.map((k) => k.id) } }, data: { revokedAt: new Date() } });
  return active.map((k) => k.prefix);
}

/**
 * Issues the provider a new key and revokes the ones it had, at once (also reconnects a disconnected
 * provider). Concurrent rotations leave exactly one active key: the last one's.
 */
export async function rotateTelemedicineProviderKey(organisationId: string, userId: string, providerId: string): Promise<IssuedProviderKey> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const provider = await lockedProvider(tx, organisationId, providerId);
    const revoked = await revokeProviderKeys(tx, provider.id);
    const issued = await issueKey(tx, organisationId, provider, userId);
    await recordAuditEvent(tx, organisationId, { type: "USER", userId }, {
      entity: "telemedicine_provider",
      entityId: provider.id,
      action: "key_rotated",
      values: { name: provider.displayName, revoked: revoked.length > 0 ? revoked.map((p) => `${p}…`).join(", ") : "none", issued: issued.key.prefix },
      summary:
        revoked.length > 0
          ? `Telemedicine provider "${provider.displayName}": key ${revoked.map((p) => `${p}…`).join(", ")} revoked, key ${issued.key.prefix}… issued`
          : `Telemedicine provider "${provider.displayName}": key ${issued.key.prefix}… issued`,
      details: { api_key_uid: issued.key.id },
    });
    return issued;
  });
}

/**
 * Disconnects a provider: its keys are revoked (refused from the next request on); the provider
 * stays, with its settings, for the prescriptions and history that name it. Rotating issues a new key.
 */
export async function disconnectTelemedicineProvider(organisationId: string, userId: string, providerId: string): Promise<{ revokedKeys: number }> {
  const db = await database();
  return db.$transaction(async (tx) => {
    const provider = await lockedProvider(tx, organisationId, providerId);
    const revoked = await revokeProviderKeys(tx, provider.id);
    if (revoked.length > 0) {
      await recordAuditEvent(tx, organisationId, { type: "USER", userId }, {
        entity: "telemedicine_provider",
        entityId: provider.id,
        action: "disconnected",
        summary: `Telemedicine provider "${provider.displayName}" disconnected: key ${revoked.map((p) => `${p}…`).join(", ")} revoked`,
        values: { name: provider.displayName },
      });
    }
    return { revokedKeys: revoked.length };
  });
}
