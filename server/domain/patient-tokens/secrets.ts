import { randomBytes } from "node:crypto";
import { errorText } from "@/i18n/error-text";
import { forgetPatientTokenSecret } from "@/server/auth/patient-tokens";
import { database } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError, ValidationError } from "@/server/domain/errors";
import { sealSecret } from "@/server/domain/webhooks/secret-box";

/**
 * The organisation's patient token secrets (G30): created and revoked by admins (the admin tool calls
 * these), used by the partner's backend to sign patient tokens (HS256, the secret's UTF-8 text as
 * the key, the secret's id as the JOSE header's kid). Stored sealed (AES-256-GCM, the webhook secret
 * box); the plaintext is returned once, at creation. Verification: server/auth/patient-tokens.ts.
 * docs/decisions/patients.md#patient-data-and-patient-tokens
 */

/** The audience a secret's tokens must carry when its creator names none. */
export const DEFAULT_PATIENT_TOKEN_AUDIENCE = "patient-data";

export type PatientTokenSecretSummary = {
  id: string;
  displayName: string;
  audience: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

const summary = { id: true, displayName: true, audience: true, createdAt: true, lastUsedAt: true, revokedAt: true } as const;

export type NewPatientTokenSecret = { organisationId: string; displayName: string; audience?: string; createdById?: string | null };

function checkedText(field: string, value: string, max: number): string {
  const text = value.trim();
  if (!text) throw ValidationError.field(field, errorText("fields.notBlank"));
  if (text.length > max) throw ValidationError.field(field, errorText("fields.maxLength", { maximum: max }));
  return text;
}

/** Creates a secret and returns it with its plaintext (256 random bits), which is shown only this once. */
export async function createPatientTokenSecret(input: NewPatientTokenSecret): Promise<PatientTokenSecretSummary & { secret: string }> {
  const displayName = checkedText("display_name", input.displayName, 200);
  const audience = checkedText("audience", input.audience ?? DEFAULT_PATIENT_TOKEN_AUDIENCE, 200);
  const secret = `ptsec_${randomBytes(32).toString("base64url")}`;
  const db = await database();
  const actor: Actor = input.createdById ? { type: "USER", userId: input.createdById } : { type: "SYSTEM" };
  const row = await db.$transaction(async (tx) => {
    const created = await tx.patientTokenSecret.create({
      data: { organisationId: input.organisationId, displayName, audience, secretSealed: sealSecret(secret), createdById: input.createdById ?? null },
      select: summary,
    });
    await recordAuditEvent(tx, input.organisationId, actor, {
      entity: "patient_token_secret",
      entityId: created.id,
      action: "created",
      summary: `Patient token secret "${displayName}" created (audience ${audience})`,
      values: { name: displayName, audience },
    });
    return created;
  });
  return { ...row, secret };
}

/**
 * Revokes a secret of the organisation: tokens naming it are refused from the next request on, in
 * every process (the verifier reads revocation on each request). Revoking again changes nothing.
 * Another organisation's or an unknown secret is not found.
 */
export async function revokePatientTokenSecret(organisationId: string, secretId: string, actor: Actor = { type: "SYSTEM" }): Promise<void> {
  const db = await database();
  await db.$transaction(async (tx) => {
    const secret = await tx.patientTokenSecret.findFirst({ where: { id: secretId, organisationId }, select: { id: true, displayName: true } });
    if (!secret) throw new NotFoundError();
    const { count } = await tx.patientTokenSecret.updateMany({ where: { id: secretId, revokedAt: null }, data: { revokedAt: new Date() } });
    if (count > 0) {
      await recordAuditEvent(tx, organisationId, actor, {
        entity: "patient_token_secret",
        entityId: secretId,
        action: "revoked",
        summary: `Patient token secret "${secret.displayName}" revoked`,
        values: { name: secret.displayName },
      });
    }
  });
  forgetPatientTokenSecret(secretId);
}

/** The organisation's secrets, newest first, revoked ones included; never their plaintext. */
export async function listPatientTokenSecrets(organisationId: string): Promise<PatientTokenSecretSummary[]> {
  const db = await database();
  return db.patientTokenSecret.findMany({ where: { organisationId }, select: summary, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
}
