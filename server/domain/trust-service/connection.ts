import { errorText, type Message } from "@/i18n/error-text";
import { database, type Db, type Tx } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { DomainError, ValidationError } from "@/server/domain/errors";
import { openSecret, sealSecret } from "@/server/domain/webhooks/secret-box";
import { checkOutgoingTarget } from "@/server/http/target-guard";
import { requestAccessToken, type CscConnection } from "./csc-token";
import { trustServiceFailure } from "./failures";

/**
 * The organisation's qualified trust service (one per organisation, docs/decisions/prescriptions.md#remote-qualified-signatures):
 * its name, the CSC API's base URL, the OAuth2 token URL when it is not {base}oauth2/token, and the
 * organisation's client id and secret (the secret sealed at rest, shown by a hint, replaced by
 * entering a new one, never logged or audited). Organisation admins set it in Settings; each doctor
 * then links their own credential there (doctor-credential.ts).
 */
export type TrustServiceSettings = {
  displayName: string;
  baseUrl: string;
  tokenUrl: string | null;
  clientId: string;
  clientSecretHint: string;
  updatedAt: Date;
};

export type TrustService = { displayName: string; connection: CscConnection };

const SELECT = { displayName: true, baseUrl: true, tokenUrl: true, clientId: true, clientSecretHint: true, updatedAt: true } as const;

/** The connection with its secret opened, for a call; null when none is configured. Inside a transaction: its `tx`. */
export async function trustServiceOf(db: Db | Tx, organisationId: string): Promise<TrustService | null> {
  const row = await db.trustServiceConnection.findUnique({
    where: { organisationId },
    select: { displayName: true, baseUrl: true, tokenUrl: true, clientId: true, sealedClientSecret: true },
  });
  if (!row) return null;
  return { displayName: row.displayName, connection: { baseUrl: row.baseUrl, tokenUrl: row.tokenUrl, clientId: row.clientId, clientSecret: openSecret(row.sealedClientSecret) } };
}

export async function getTrustServiceSettings(organisationId: string): Promise<{ connection: TrustServiceSettings | null; linkedDoctors: number }> {
  const db = await database();
  const [connection, linkedDoctors] = await Promise.all([
    db.trustServiceConnection.findUnique({ where: { organisationId }, select: SELECT }),
    db.doctorSigningCredential.count({ where: { organisationId } }),
  ]);
  return { connection, linkedDoctors };
}

/** What the admin tool shows of a secret: its length class and last four characters. */
const secretHint = (secret: string) => `…${secret.slice(-4)}`;

export type TrustServiceInput = {
  displayName?: string | null;
  baseUrl?: string | null;
  tokenUrl?: string | null;
  clientId?: string | null;
  /** Omitted or empty: the stored secret is kept (required when none is stored). */
  clientSecret?: string | null;
};

/**
 * Connects the organisation's trust service or changes it. The base URL and token URL are checked by
 * the SSRF guard as any destination an admin enters. Linked credentials stay linked (the same
 * service at a new address); removing the connection unlinks them. Audited without the secret.
 */
export async function saveTrustServiceConnection(organisationId: string, actor: Actor, input: TrustServiceInput): Promise<TrustServiceSettings> {
  const displayName = input.displayName?.trim() ?? "";
  const baseUrl = input.baseUrl?.trim() ?? "";
  const tokenUrl = input.tokenUrl?.trim() || null;
  const clientId = input.clientId?.trim() ?? "";
  const clientSecret = input.clientSecret?.trim() || null;
  const fields: Record<string, ReturnType<typeof errorText>[]> = {};
  if (!displayName) fields.displayName = [errorText("trustService.nameRequired")];
  if (!clientId) fields.clientId = [errorText("trustService.clientIdRequired")];
  if (!baseUrl) fields.baseUrl = [errorText("trustService.baseUrlRequired")];
  else {
    const blocked = await checkOutgoingTarget(baseUrl);
    if (blocked) fields.baseUrl = [blocked];
  }
  if (tokenUrl) {
    const blocked = await checkOutgoingTarget(tokenUrl);
    if (blocked) fields.tokenUrl = [blocked];
  }
  if (Object.keys(fields).length > 0) throw new ValidationError(fields);
  const db = await database();
  return db.$transaction(async (tx) => {
    const stored = await tx.trustServiceConnection.findUnique({ where: { organisationId }, select: { organisationId: true } });
    if (!stored && clientSecret === null) throw ValidationError.field("clientSecret", errorText("trustService.clientSecretRequired"));
    const secret = clientSecret === null ? {} : { sealedClientSecret: sealSecret(clientSecret), clientSecretHint: secretHint(clientSecret) };
    const data = { displayName, baseUrl, tokenUrl, clientId, ...secret };
    const row = stored
      ? await tx.trustServiceConnection.update({ where: { organisationId }, data, select: SELECT })
      : await tx.trustServiceConnection.create({ data: { organisationId, ...data, sealedClientSecret: secret.sealedClientSecret!, clientSecretHint: secret.clientSecretHint! }, select: SELECT });
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "setting",
      entityId: null,
      action: stored ? "changed" : "created",
      values: { setting: "trust_service", name: displayName, replaced: String(clientSecret !== null), hint: clientSecret === null ? null : row.clientSecretHint },
      summary: `Trust service "${displayName}" ${stored ? "changed" : "connected"}${clientSecret === null ? "" : `: client secret ${row.clientSecretHint}`}`,
      details: { setting: "trust_service", baseUrl, tokenUrl, clientId, secretReplaced: clientSecret !== null },
    });
    return row;
  });
}

/** Disconnects the trust service and unlinks every doctor's credential there (outside the sandbox nobody can sign until it is set again). */
export async function removeTrustServiceConnection(organisationId: string, actor: Actor): Promise<void> {
  const db = await database();
  await db.$transaction(async (tx) => {
    const removed = await tx.trustServiceConnection.deleteMany({ where: { organisationId } });
    if (removed.count === 0) return;
    const unlinked = await tx.doctorSigningCredential.deleteMany({ where: { organisationId } });
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "setting",
      entityId: null,
      action: "removed",
      values: { setting: "trust_service", unlinked: unlinked.count },
      summary: `Trust service removed${unlinked.count > 0 ? `; ${unlinked.count} doctor credential(s) unlinked` : ""}`,
      details: { setting: "trust_service", unlinkedCredentials: unlinked.count },
    });
  });
}

export type TrustServiceTest = { ok: boolean; message: Message };

/** "Test connection": asks the token endpoint for an access token with the stored client; changes nothing. */
export async function testTrustServiceConnection(organisationId: string): Promise<TrustServiceTest> {
  const service = await trustServiceOf(await database(), organisationId);
  if (!service) return { ok: false, message: errorText("trustService.notConnected") };
  try {
    const token = await requestAccessToken(service.connection);
    return { ok: true, message: errorText("trustService.testOk", { minutes: Math.max(1, Math.round(token.expiresInSeconds / 60)) }) };
  } catch (error) {
    const failure = trustServiceFailure(error);
    if (failure instanceof DomainError) return { ok: false, message: failure.text ?? failure.message };
    throw failure;
  }
}
