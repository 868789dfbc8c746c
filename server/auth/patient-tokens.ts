import { decodeProtectedHeader, errors, jwtVerify } from "jose";
import { databaseDriver } from "@/server/db/client";
import { openSecret } from "@/server/domain/webhooks/secret-box";
import { isStorableText } from "@/server/wire/json-input";

/**
 * Patient tokens (G30): short-lived HS256 JWTs that a partner's backend mints for one shop customer
 * with a secret of its organisation (server/domain/patient-tokens/), sent in X-Service-Booking-Token
 * on the patient-data endpoints. The JOSE header's `kid` names the secret. Every refusal names one
 * code of the spec's authentication error table. docs/decisions/patients.md#patient-data-and-patient-tokens
 */

/** Clock skew allowed between the partner's backend and this service on exp, nbf and iat. */
export const PATIENT_TOKEN_CLOCK_TOLERANCE_SECONDS = 30;
/** The longest a token may live (exp − iat), and the oldest iat accepted. */
export const PATIENT_TOKEN_MAX_LIFETIME_SECONDS = 15 * 60;
/** Longer header values are not tokens of ours (a token is a few hundred characters). */
const MAX_TOKEN_LENGTH = 4096;
const MAX_CLAIM_LENGTH = 255;
export const PATIENT_TOKEN_REQUIRED_CLAIMS = ["exp", "nbf", "iat", "shop_identifier", "shop_customer_id"] as const;

export type PatientTokenCode = "invalid_header" | "token_expired" | "invalid_claims";
export type PatientTokenFailure = { code: PatientTokenCode; description: string };

/** What a verified token lets the request do: act for one customer of one shop of the organisation. */
export type PatientTokenScope = {
  secretId: string;
  organisationId: string;
  shopId: string;
  shopIdentifier: string;
  shopCustomerId: string;
};

const failure = (code: PatientTokenCode, description: string) => ({ failure: { code, description } });

type OpenedSecret = { organisationId: string; audience: string; key: Uint8Array };

/**
 * Opened secrets by id. A secret's bytes, audience and organisation never change, so an entry is
 * never stale; what can change, revocation, is read from the database on every request (in the
 * statement that resolves the shop), so it takes effect at once in every process. The cache saves
 * the secret's read and its decryption; revokePatientTokenSecret also drops the entry here.
 */
const opened = new Map<string, OpenedSecret>();
const MAX_CACHED_SECRETS = 1000;
// last_used_at is written at most once a minute per secret (per process), as for API keys.
const lastUseWritten = new Map<string, number>();
const LAST_USED_RESOLUTION_MS = 60_000;

export function forgetPatientTokenSecret(secretId: string): void {
  opened.delete(secretId);
}

async function openedSecret(secretId: string): Promise<OpenedSecret | null> {
  const cached = opened.get(secretId);
  if (cached) return cached;
  const driver = await databaseDriver();
  const [row] = await driver.query<{ organisationId: string; audience: string; secretSealed: string; revoked: boolean }>(
    `SELECT "organisationId", "audience", "secretSealed", "revokedAt" IS NOT NULL AS "revoked" FROM "PatientTokenSecret" WHERE "id" = $1`,
    [secretId],
  );
  if (!row || row.revoked) return null;
  const secret: OpenedSecret = { organisationId: row.organisationId, audience: row.audience, key: new TextEncoder().encode(openSecret(row.secretSealed)) };
  if (opened.size >= MAX_CACHED_SECRETS) opened.delete(opened.keys().next().value!);
  opened.set(secretId, secret);
  return secret;
}

// The secret still active and the token's shop in the secret's organisation: one statement per request.
const SECRET_AND_SHOP = `
  SELECT EXISTS (SELECT 1 FROM "PatientTokenSecret" WHERE "id" = $1 AND "revokedAt" IS NULL) AS "active",
         (SELECT "id" FROM "Shop" WHERE "identifier" = $2 AND "organisationId" = $3) AS "shopId"`;

const isClaimText = (value: unknown): value is string =>
  typeof value === "string" && value.trim() !== "" && value.length <= MAX_CLAIM_LENGTH && isStorableText(value);

/** A jose refusal as the spec's codes: an expired token, claims that do not fit, else a token we cannot trust. */
function joseFailure(error: unknown): { failure: PatientTokenFailure } {
  if (error instanceof errors.JWTExpired) return failure("token_expired", "The patient token has expired.");
  if (error instanceof errors.JWTClaimValidationFailed) {
    return failure("invalid_claims", `The patient token's "${error.claim}" claim is missing or not valid now (${error.reason}).`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return failure("invalid_header", "The patient token's signature does not verify.");
  if (error instanceof errors.JOSEError) return failure("invalid_header", "The patient token is not a valid HS256 JWT.");
  throw error;
}

/**
 * Verifies a presented token: a compact JWS whose header says HS256 and the kid of an active secret,
 * signed with that secret, for the secret's audience, within its times, with the required claims,
 * living at most 15 minutes, naming a shop of the secret's organisation. Nothing is written but the
 * secret's last use.
 */
export async function verifyPatientToken(token: string): Promise<{ scope: PatientTokenScope } | { failure: PatientTokenFailure }> {
  if (token.length > MAX_TOKEN_LENGTH) return failure("invalid_header", "The patient token is too long.");
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    return failure("invalid_header", "The patient token is not a JWT.");
  }
  if (header.alg !== "HS256") return failure("invalid_header", "The patient token must be signed with HS256.");
  const kid = header.kid;
  if (typeof kid !== "string" || kid.length > 100 || !isStorableText(kid)) {
    return failure("invalid_header", "The patient token's header must name its secret in kid.");
  }
  const secret = await openedSecret(kid);
  if (!secret) return failure("invalid_header", "The patient token's kid names no active secret.");

  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(token, secret.key, {
      algorithms: ["HS256"],
      audience: secret.audience,
      requiredClaims: [...PATIENT_TOKEN_REQUIRED_CLAIMS],
      clockTolerance: PATIENT_TOKEN_CLOCK_TOLERANCE_SECONDS,
      maxTokenAge: PATIENT_TOKEN_MAX_LIFETIME_SECONDS,
    }));
  } catch (error) {
    return joseFailure(error);
  }
  const { exp, iat } = claims as { exp: number; iat: number };
  const shopIdentifier = claims.shop_identifier;
  const shopCustomerId = claims.shop_customer_id;
  if (exp - iat > PATIENT_TOKEN_MAX_LIFETIME_SECONDS) {
    return failure("invalid_claims", `The patient token may live at most ${PATIENT_TOKEN_MAX_LIFETIME_SECONDS} seconds (exp − iat).`);
  }
  if (!isClaimText(shopIdentifier) || !isClaimText(shopCustomerId)) {
    const name = isClaimText(shopIdentifier) ? "shop_customer_id" : "shop_identifier";
    return failure("invalid_claims", `The patient token's "${name}" claim must be a non-blank text of at most ${MAX_CLAIM_LENGTH} characters.`);
  }

  const driver = await databaseDriver();
  const [row] = await driver.query<{ active: boolean; shopId: string | null }>(SECRET_AND_SHOP, [kid, shopIdentifier, secret.organisationId]);
  if (!row?.active) {
    forgetPatientTokenSecret(kid);
    return failure("invalid_header", "The patient token's kid names no active secret.");
  }
  if (!row.shopId) return failure("invalid_claims", "The patient token's shop_identifier names no shop of the secret's organisation.");
  await recordUse(kid);
  return { scope: { secretId: kid, organisationId: secret.organisationId, shopId: row.shopId, shopIdentifier, shopCustomerId } };
}

async function recordUse(secretId: string): Promise<void> {
  const now = Date.now();
  if (now - (lastUseWritten.get(secretId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
  lastUseWritten.set(secretId, now);
  const driver = await databaseDriver();
  await driver.query(`UPDATE "PatientTokenSecret" SET "lastUsedAt" = $2 WHERE "id" = $1`, [secretId, new Date(now)]);
}
