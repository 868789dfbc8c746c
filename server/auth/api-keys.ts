import { createHash, randomBytes } from "node:crypto";
import { errorText } from "@/i18n/error-text";
import { database, databaseDriver, type Tx } from "@/server/db/client";
import type { ApiKeyFamily } from "@/server/db/generated/enums";
import type { ScopedPharmacy } from "@/server/domain/pharmacies/pharmacy-scope";
import { ValidationError } from "@/server/domain/errors";
import { isPermissionOf } from "./permissions";

const FAMILY_PREFIX: Record<ApiKeyFamily, string> = { MANAGEMENT: "rxm", PUBLIC: "rxp", PHARMACY: "rxe" };

/**
 * API keys are 256-bit random tokens. Only their SHA-256 is stored: a fast hash is right for
 * high-entropy secrets (nothing to brute-force), and it makes the lookup one indexed equality.
 */
export function hashApiKey(plaintext: string): string {
  return createHash("sha256").update(plaintext, "utf8").digest("hex");
}

function generateApiKey(family: ApiKeyFamily): string {
  return `${FAMILY_PREFIX[family]}_${randomBytes(32).toString("base64url")}`;
}

export type NewApiKey = {
  family: ApiKeyFamily;
  displayName: string;
  permissions: string[];
  organisationId: string;
  pharmacyId?: string | null;
  pharmacyGroupId?: string | null;
  createdById?: string | null;
  /** A Management key issued to this telemedicine provider (server/domain/telemedicine/providers.ts). */
  telemedicineProviderId?: string | null;
};

/**
 * Creates a key and returns its plaintext, which is never stored and shown only this once. `tx`: the
 * caller's transaction (the admin tool and the pharmacy portal record the creation in the audit log).
 */
export async function createApiKey(input: NewApiKey, tx?: Tx): Promise<{ id: string; plaintext: string }> {
  const displayName = input.displayName.trim();
  if (!displayName) throw ValidationError.field("display_name", errorText("fields.notBlank"));
  const unknown = input.permissions.filter((p) => !isPermissionOf(input.family, p));
  if (unknown.length > 0) {
    throw ValidationError.field("permissions", errorText("apiKeys.unknownPermission", { permissions: unknown.join(", ") }));
  }
  if (input.family === "PHARMACY" && Boolean(input.pharmacyId) === Boolean(input.pharmacyGroupId)) {
    throw ValidationError.field("scope", "A pharmacy key is scoped to exactly one pharmacy or one pharmacy group.");
  }
  if (input.family !== "PHARMACY" && (input.pharmacyId || input.pharmacyGroupId)) {
    throw ValidationError.field("scope", "Management and Public keys are scoped to the organisation.");
  }
  if (input.telemedicineProviderId && input.family !== "MANAGEMENT") {
    throw ValidationError.field("scope", "A telemedicine provider is issued a Management key.");
  }
  const plaintext = generateApiKey(input.family);
  const db = tx ?? (await database());
  const key = await db.apiKey.create({
    data: {
      family: input.family,
      displayName,
      permissions: [...new Set(input.permissions)],
      organisationId: input.organisationId,
      pharmacyId: input.pharmacyId ?? null,
      pharmacyGroupId: input.pharmacyGroupId ?? null,
      createdById: input.createdById ?? null,
      telemedicineProviderId: input.telemedicineProviderId ?? null,
      keyHash: hashApiKey(plaintext),
      prefix: plaintext.slice(0, 12),
    },
  });
  return { id: key.id, plaintext };
}

/**
 * Revoked keys fail authenticateRequestKey from the next request on (it reads the row every time).
 * Returns whether this call revoked it (false: it was revoked already). `tx`: the caller's transaction.
 */
export async function revokeApiKey(id: string, tx?: Tx): Promise<boolean> {
  const db = tx ?? (await database());
  const { count } = await db.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  return count > 0;
}

export type ApiPrincipal = {
  keyId: string;
  family: ApiKeyFamily;
  organisationId: string;
  permissions: ReadonlySet<string>;
  pharmacyId: string | null;
  pharmacyGroupId: string | null;
};

// last_used_at is written at most once a minute per key, so a busy key costs no write per request.
const LAST_USED_RESOLUTION_MS = 60_000;

function lastUseIsStale(lastUsedAtMs: number | null): boolean {
  return lastUsedAtMs === null || Date.now() - lastUsedAtMs > LAST_USED_RESOLUTION_MS;
}


type KeyRow = {
  id: string;
  family: ApiKeyFamily;
  organisationId: string;
  permissions: string[];
  pharmacyId: string | null;
  pharmacyGroupId: string | null;
  revoked: boolean;
  lastUsedAtMs: number | null;
  pharmacy: ScopedPharmacy | null;
};

// The key and a pharmacy in one statement: candidatePharmacyId of the pharmacy scope rule (the key's
// own pharmacy, else the requested one, $2).
const KEY_WITH_PHARMACY = `
  SELECT k."id", k."family"::text AS "family", k."organisationId", k."permissions", k."pharmacyId", k."pharmacyGroupId",
         k."revokedAt" IS NOT NULL AS "revoked",
         (extract(epoch FROM k."lastUsedAt") * 1000)::float8 AS "lastUsedAtMs",
         CASE WHEN p."id" IS NULL THEN NULL ELSE json_build_object(
           'id', p."id", 'displayName', p."displayName", 'organisationId', p."organisationId",
           'hiddenSkuType', p."hiddenSkuType", 'groupId', p."groupId") END AS "pharmacy"
    FROM "ApiKey" k
    LEFT JOIN "Pharmacy" p ON p."id" = coalesce(k."pharmacyId", $2)
   WHERE k."keyHash" = $1`;

/**
 * The check of a presented key (the REST kit's on every request): active, of this family, last use
 * recorded at most once a minute; and with it the candidate pharmacy the request would act for
 * (the key's own, else `requestedPharmacyId`), which the caller passes to pharmacyInReach. One
 * prepared statement through the driver rather than Prisma queries: it runs on every request (the
 * calibration row of the orders benchmark, docs/benchmarks.md).
 */
export async function authenticateRequestKey(
  family: ApiKeyFamily,
  plaintext: string,
  requestedPharmacyId: string | null,
  /** hashApiKey(plaintext), when the caller has it already (the kit hashes once for the rate limit too). */
  keyHash = hashApiKey(plaintext),
): Promise<{ principal: ApiPrincipal; pharmacy: ScopedPharmacy | null } | null> {
  const driver = await databaseDriver();
  const [key] = await driver.query<KeyRow>(KEY_WITH_PHARMACY, [keyHash, requestedPharmacyId]);
  if (!key || key.revoked || key.family !== family) return null;
  if (lastUseIsStale(key.lastUsedAtMs)) {
    await driver.query(`UPDATE "ApiKey" SET "lastUsedAt" = $2 WHERE "id" = $1`, [key.id, new Date()]);
  }
  return {
    principal: {
      keyId: key.id,
      family: key.family,
      organisationId: key.organisationId,
      permissions: new Set(key.permissions),
      pharmacyId: key.pharmacyId,
      pharmacyGroupId: key.pharmacyGroupId,
    },
    pharmacy: key.pharmacy,
  };
}
