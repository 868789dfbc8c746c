/**
 * Management and Public API keys as admins manage them in the admin tool (Settings → API keys):
 * the organisation's active keys, a new key shown once, revocation. Issuing and revoking is
 * server/auth/api-keys.ts; another organisation's key (or a pharmacy key) is not found here.
 * Creating and revoking are recorded in the audit log, in the same transaction.
 */
import { errorText } from "@/i18n/error-text";
import { createApiKey, revokeApiKey } from "@/server/auth/api-keys";
import { database, type Prisma, type Tx } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError, ValidationError } from "@/server/domain/errors";

export type OrganisationKeyFamily = "MANAGEMENT" | "PUBLIC";
const FAMILIES: OrganisationKeyFamily[] = ["MANAGEMENT", "PUBLIC"];

const keySelect = {
  id: true,
  family: true,
  displayName: true,
  prefix: true,
  permissions: true,
  createdAt: true,
  lastUsedAt: true,
  // Its creator's deactivation does not end a key (it is the organisation's): the lists show it.
  createdBy: { select: { id: true, displayName: true, deactivatedAt: true } },
} as const satisfies Prisma.ApiKeySelect;

export type OrganisationApiKey = Prisma.ApiKeyGetPayload<{ select: typeof keySelect }>;

/** The organisation's active Management and Public keys, newest first. */
export async function listOrganisationApiKeys(organisationId: string): Promise<OrganisationApiKey[]> {
  const db = await database();
  return db.apiKey.findMany({
    where: { organisationId, family: { in: FAMILIES }, revokedAt: null },
    select: keySelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
}

export type NewOrganisationApiKey = {
  family: OrganisationKeyFamily;
  displayName: string;
  permissions: string[];
  createdById: string;
};

/** Creates a key of the organisation; the plaintext is returned only this once. */
export async function createOrganisationApiKey(
  organisationId: string,
  input: NewOrganisationApiKey,
): Promise<{ key: OrganisationApiKey; plaintext: string }> {
  // A key that may do nothing would authenticate and then be refused everywhere.
  if (input.permissions.length === 0) throw ValidationError.field("permissions", errorText("apiKeys.choosePermission"));
  const db = await database();
  return db.$transaction(async (tx) => {
    const { id, plaintext } = await createApiKey({ ...input, organisationId }, tx);
    const key = await tx.apiKey.findUniqueOrThrow({ where: { id }, select: keySelect });
    await recordAuditEvent(tx, organisationId, { type: "USER", userId: input.createdById }, {
      entity: "api_key",
      entityId: key.id,
      action: "created",
      summary: `${familyName[key.family as OrganisationKeyFamily]} API key "${key.displayName}" created (${key.permissions.join(", ")})`,
      values: { family: key.family, name: key.displayName, permissions: key.permissions.join(", ") },
      details: { family: key.family.toLowerCase(), prefix: key.prefix, permissions: key.permissions },
    });
    return { key, plaintext };
  });
}

/**
 * Issues a Management key to one of the organisation's telemedicine providers, inside the caller's
 * transaction (connecting or rotating is one command with the provider's rows and its audit event);
 * the plaintext is returned only this once.
 */
export async function issueTelemedicineProviderKey(
  tx: Tx,
  organisationId: string,
  input: { providerId: string; displayName: string; permissions: readonly string[]; createdById: string },
): Promise<{ key: OrganisationApiKey; plaintext: string }> {
  const { id, plaintext } = await createApiKey(
    {
      family: "MANAGEMENT",
      displayName: input.displayName,
      permissions: [...input.permissions],
      organisationId,
      createdById: input.createdById,
      telemedicineProviderId: input.providerId,
    },
    tx,
  );
  return { key: await tx.apiKey.findUniqueOrThrow({ where: { id }, select: keySelect }), plaintext };
}

const familyName: Record<OrganisationKeyFamily, string> = { MANAGEMENT: "Management", PUBLIC: "Public" };

/**
 * Revokes one of the organisation's Management or Public keys; unknown or elsewhere: NotFoundError.
 * Revoking a revoked key again changes nothing and records nothing.
 */
export async function revokeOrganisationApiKey(organisationId: string, keyId: string, actor: Actor): Promise<void> {
  const db = await database();
  await db.$transaction(async (tx) => {
    const key = await tx.apiKey.findFirst({
      where: { id: keyId, organisationId, family: { in: FAMILIES } },
      select: { id: true, family: true, displayName: true, prefix: true },
    });
    if (!key) throw new NotFoundError();
    if (!(await revokeApiKey(key.id, tx))) return;
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "api_key",
      entityId: key.id,
      action: "revoked",
      summary: `${familyName[key.family as OrganisationKeyFamily]} API key "${key.displayName}" revoked`,
      values: { family: key.family, name: key.displayName },
      details: { family: key.family.toLowerCase(), prefix: key.prefix },
    });
  });
}
