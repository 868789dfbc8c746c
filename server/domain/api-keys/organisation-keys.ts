/**
 * Management and Public API keys as admins manage them in the admin tool (Settings → API keys):
 * the organisation's active keys, a new key shown once, revocation. Issuing and revoking is
 * server/auth/api-keys.ts; another organisation's key (or a pharmacy key) is not found here.
 */
import { createApiKey, revokeApiKey } from "@/server/auth/api-keys";
import { database, type Prisma, type Tx } from "@/server/db/client";
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
  createdBy: { select: { id: true, displayName: true } },
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
  if (input.permissions.length === 0) throw ValidationError.field("permissions", "Choose at least one permission.");
  const { id, plaintext } = await createApiKey({ ...input, organisationId });
  const db = await database();
  return { key: await db.apiKey.findUniqueOrThrow({ where: { id }, select: keySelect }), plaintext };
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

/** Revokes one of the organisation's Management or Public keys; unknown or elsewhere: NotFoundError. */
export async function revokeOrganisationApiKey(organisationId: string, keyId: string): Promise<void> {
  const db = await database();
  const key = await db.apiKey.findFirst({ where: { id: keyId, organisationId, family: { in: FAMILIES } }, select: { id: true } });
  if (!key) throw new NotFoundError();
  await revokeApiKey(key.id);
}
