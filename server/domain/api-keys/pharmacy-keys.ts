/**
 * External Pharmacy API keys as pharmacists manage them in the pharmacy portal (Settings → API
 * keys): the keys within the pharmacist's reach, a new key of their pharmacy (or, for a group
 * pharmacist, of their group or one of its pharmacies), and revocation. Issuing and revoking a key
 * is server/auth/api-keys.ts (createApiKey, revokeApiKey); which pharmacy a pharmacist may act for
 * is the pharmacy scope rule (server/domain/pharmacies/pharmacy-scope.ts). A key outside the reach
 * is not found, like a pharmacy out of reach. Creating and revoking are recorded in the
 * organisation's audit log, in the same transaction.
 */
import { errorText } from "@/i18n/error-text";
import { createApiKey, revokeApiKey } from "@/server/auth/api-keys";
import { database, type Prisma, type Tx } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError, ValidationError } from "@/server/domain/errors";
import { pharmacyToActFor, type PharmacyReach } from "@/server/domain/pharmacies/pharmacy-scope";

export type PharmacyApiKeyScope =
  | { type: "pharmacy"; id: string; displayName: string }
  | { type: "group"; id: string; displayName: string };

export type PharmacyApiKey = {
  id: string;
  displayName: string;
  /** The first characters of the key, to tell keys apart; the key itself is never stored. */
  prefix: string;
  permissions: string[];
  scope: PharmacyApiKeyScope;
  /**
   * Who made the key. The key belongs to the pharmacy (or group), not to them: it keeps working
   * after they are deactivated (docs/security.md), and the lists say so (`deactivated`).
   */
  createdBy: { id: string; name: string; deactivated: boolean } | null;
  createdAt: Date;
  /** Recorded at most once a minute (server/auth/api-keys.ts). */
  lastUsedAt: Date | null;
};

/**
 * The keys a pharmacist manages: a single-pharmacy pharmacist their pharmacy's keys (not the
 * group's keys, which also reach their pharmacy but belong to the group); a group pharmacist the
 * group's keys and every key of the group's pharmacies. Always External Pharmacy keys of the
 * pharmacist's organisation.
 */
function keysInReach(reach: PharmacyReach): Prisma.ApiKeyWhereInput | null {
  const base = { family: "PHARMACY", organisationId: reach.organisationId } as const;
  if (reach.pharmacyId) return { ...base, pharmacyId: reach.pharmacyId };
  if (reach.pharmacyGroupId) {
    return { ...base, OR: [{ pharmacyGroupId: reach.pharmacyGroupId }, { pharmacy: { groupId: reach.pharmacyGroupId } }] };
  }
  return null;
}

const keySelect = {
  id: true,
  displayName: true,
  prefix: true,
  permissions: true,
  createdAt: true,
  lastUsedAt: true,
  pharmacy: { select: { id: true, displayName: true } },
  pharmacyGroup: { select: { id: true, displayName: true } },
  createdBy: { select: { id: true, displayName: true, deactivatedAt: true } },
} as const satisfies Prisma.ApiKeySelect;

type KeyRow = Prisma.ApiKeyGetPayload<{ select: typeof keySelect }>;

function toKey(row: KeyRow): PharmacyApiKey {
  const scope: PharmacyApiKeyScope = row.pharmacy
    ? { type: "pharmacy", id: row.pharmacy.id, displayName: row.pharmacy.displayName }
    : { type: "group", id: row.pharmacyGroup!.id, displayName: row.pharmacyGroup!.displayName };
  return {
    id: row.id,
    displayName: row.displayName,
    prefix: row.prefix,
    permissions: row.permissions,
    scope,
    createdBy: row.createdBy ? { id: row.createdBy.id, name: row.createdBy.displayName, deactivated: row.createdBy.deactivatedAt !== null } : null,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
  };
}

/** The active (not revoked) keys in the pharmacist's reach, newest first. */
export async function listPharmacyApiKeys(reach: PharmacyReach): Promise<PharmacyApiKey[]> {
  const where = keysInReach(reach);
  if (!where) return [];
  const db = await database();
  const rows = await db.apiKey.findMany({
    where: { ...where, revokedAt: null },
    select: keySelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(toKey);
}

/** What a pharmacist may scope a new key to: their group (group pharmacists only) and their pharmacies. */
export async function pharmacyGroupInReach(reach: PharmacyReach): Promise<{ id: string; displayName: string } | null> {
  if (reach.pharmacyId || !reach.pharmacyGroupId) return null;
  const db = await database();
  return db.pharmacyGroup.findFirst({
    where: { id: reach.pharmacyGroupId, organisationId: reach.organisationId },
    select: { id: true, displayName: true },
  });
}

export type NewPharmacyApiKey = {
  displayName: string;
  permissions: string[];
  /** The pharmacy of the key; a single-pharmacy pharmacist may omit it (their own). */
  pharmacyId?: string | null;
  /** A key of the whole group (group pharmacists only); then no pharmacyId. */
  groupWide?: boolean;
  createdById: string;
};

/**
 * Creates an External Pharmacy key in the pharmacist's reach; returns it with its plaintext, shown
 * only this once. A pharmacy out of reach: NotFoundError. A group key asked by a single-pharmacy
 * pharmacist, or a key without permissions: ValidationError.
 */
export async function createPharmacyApiKey(
  reach: PharmacyReach,
  input: NewPharmacyApiKey,
): Promise<{ key: PharmacyApiKey; plaintext: string }> {
  // A key that may do nothing would authenticate and then be refused everywhere.
  if (input.permissions.length === 0) throw ValidationError.field("permissions", errorText("apiKeys.choosePermission"));
  let scope: { pharmacyId: string } | { pharmacyGroupId: string };
  if (input.groupWide) {
    if (input.pharmacyId) throw ValidationError.field("scope", errorText("apiKeys.groupKeyWithPharmacy"));
    const group = await pharmacyGroupInReach(reach);
    if (!group) throw ValidationError.field("scope", errorText("apiKeys.groupKeyWithoutGroup"));
    scope = { pharmacyGroupId: group.id };
  } else {
    const pharmacy = await pharmacyToActFor(reach, input.pharmacyId ?? null);
    if (!pharmacy) throw new NotFoundError();
    scope = { pharmacyId: pharmacy.id };
  }
  const db = await database();
  return db.$transaction(async (tx) => {
    const { id, plaintext } = await createApiKey(
      {
        family: "PHARMACY",
        displayName: input.displayName,
        permissions: input.permissions,
        organisationId: reach.organisationId,
        createdById: input.createdById,
        ...scope,
      },
      tx,
    );
    const key = toKey(await tx.apiKey.findUniqueOrThrow({ where: { id }, select: keySelect }));
    await auditPharmacyKey(tx, reach.organisationId, { type: "USER", userId: input.createdById }, key, "created");
    return { key, plaintext };
  });
}

async function auditPharmacyKey(tx: Tx, organisationId: string, actor: Actor, key: PharmacyApiKey, action: "created" | "revoked") {
  const scope = `${key.scope.type === "group" ? "group" : "pharmacy"} ${key.scope.displayName}`;
  await recordAuditEvent(tx, organisationId, actor, {
    entity: "api_key",
    entityId: key.id,
    action,
    values: { family: "PHARMACY", name: key.displayName, scopeType: key.scope.type, scope: key.scope.displayName, permissions: key.permissions.join(", ") },
    summary:
      action === "created"
        ? `External Pharmacy API key "${key.displayName}" for ${scope} created (${key.permissions.join(", ")})`
        : `External Pharmacy API key "${key.displayName}" for ${scope} revoked`,
    details: { family: "pharmacy", prefix: key.prefix, scope: key.scope.type, scopeId: key.scope.id },
  });
}

/**
 * Revokes a key in the pharmacist's reach: it answers 401 from the next request on. Revoking a
 * revoked key again changes nothing. Unknown or out of reach: NotFoundError.
 */
export async function revokePharmacyApiKey(reach: PharmacyReach, keyId: string, actor: Actor): Promise<void> {
  const where = keysInReach(reach);
  if (!where) throw new NotFoundError();
  const db = await database();
  await db.$transaction(async (tx) => {
    const row = await tx.apiKey.findFirst({ where: { AND: [where, { id: keyId }] }, select: keySelect });
    if (!row) throw new NotFoundError();
    if (await revokeApiKey(row.id, tx)) await auditPharmacyKey(tx, reach.organisationId, actor, toKey(row), "revoked");
  });
}
