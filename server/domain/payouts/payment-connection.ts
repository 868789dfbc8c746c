import { errorText } from "@/i18n/error-text";
import { database } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError, ValidationError } from "@/server/domain/errors";
import { openSecret, sealSecret } from "@/server/domain/webhooks/secret-box";
import { checkOutgoingTarget } from "@/server/http/target-guard";
import { MOLLIE_API_ENDPOINT, MollieCallError, mollieProfile, type MollieConnection } from "./mollie-api";

/**
 * The organisation's payment account for split payouts (one provider: Mollie,
 * docs/decisions/payouts.md#split-payouts): its API endpoint and API key (sealed at rest, shown
 * masked, replaced by entering a new one), and each pharmacy's Mollie organization id, the
 * destination of its routes. Without a connection payouts are routed as before: no provider route.
 */
const PROVIDER = "mollie";
const API_KEY = /^(live|test)_[A-Za-z0-9]{20,64}$/;
const ORGANIZATION_ID = /^org_[A-Za-z0-9]{1,64}$/;

export type PaymentConnectionSettings = {
  connection: { provider: string; apiEndpoint: string; apiKeyHint: string; updatedAt: Date } | null;
  pharmacies: { id: string; displayName: string; mollieOrganizationId: string | null }[];
};

/** The connection the payout.create_route task uses, its key opened; null when none is set. */
export async function paymentConnectionOf(organisationId: string): Promise<MollieConnection | null> {
  const db = await database();
  const row = await db.paymentProviderConnection.findUnique({ where: { organisationId }, select: { apiEndpoint: true, sealedApiKey: true } });
  return row ? { apiEndpoint: row.apiEndpoint, apiKey: openSecret(row.sealedApiKey) } : null;
}

export async function getPaymentConnectionSettings(organisationId: string): Promise<PaymentConnectionSettings> {
  const db = await database();
  const [connection, pharmacies] = await Promise.all([
    db.paymentProviderConnection.findUnique({ where: { organisationId }, select: { provider: true, apiEndpoint: true, apiKeyHint: true, updatedAt: true } }),
    db.pharmacy.findMany({ where: { organisationId }, select: { id: true, displayName: true, mollieOrganizationId: true }, orderBy: [{ displayName: "asc" }, { id: "asc" }] }),
  ]);
  return { connection, pharmacies };
}

/** What the admin tool shows of a key: its mode prefix and last four characters. */
function keyHint(apiKey: string): string {
  return `${apiKey.slice(0, apiKey.indexOf("_") + 1)}…${apiKey.slice(-4)}`;
}

/**
 * Connects the organisation's Mollie account, or changes it: the endpoint (Mollie's by default;
 * checked by the SSRF guard as any destination an admin enters) and the API key (required when none
 * is stored; omitted keeps the stored one). Audited without the key.
 */
export async function savePaymentConnection(
  organisationId: string,
  actor: Actor,
  input: { apiEndpoint?: string | null; apiKey?: string | null },
): Promise<PaymentConnectionSettings["connection"]> {
  const apiEndpoint = input.apiEndpoint?.trim() || MOLLIE_API_ENDPOINT;
  const apiKey = input.apiKey?.trim() || null;
  const blocked = await checkOutgoingTarget(apiEndpoint);
  if (blocked) throw ValidationError.field("apiEndpoint", blocked);
  if (apiKey !== null && !API_KEY.test(apiKey)) throw ValidationError.field("apiKey", errorText("payouts.apiKeyShape"));
  const db = await database();
  return db.$transaction(async (tx) => {
    const stored = await tx.paymentProviderConnection.findUnique({ where: { organisationId }, select: { organisationId: true } });
    if (!stored && apiKey === null) throw ValidationError.field("apiKey", errorText("payouts.apiKeyRequired"));
    const key = apiKey === null ? null : { sealedApiKey: sealSecret(apiKey), apiKeyHint: keyHint(apiKey) };
    const select = { provider: true, apiEndpoint: true, apiKeyHint: true, updatedAt: true } as const;
    const row = stored
      ? await tx.paymentProviderConnection.update({ where: { organisationId }, data: { apiEndpoint, ...key }, select })
      : await tx.paymentProviderConnection.create({ data: { organisationId, provider: PROVIDER, apiEndpoint, ...key! }, select });
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "setting",
      entityId: null,
      action: stored ? "changed" : "created",
      values: { setting: "payment_provider", replaced: String(apiKey !== null), hint: apiKey === null ? null : row.apiKeyHint },
      summary: `Payment provider connection ${stored ? "changed" : "set"}${apiKey === null ? "" : `: API key ${row.apiKeyHint}`}`,
      details: { setting: "payment_provider", apiEndpoint, keyReplaced: apiKey !== null },
    });
    return row;
  });
}

/** Disconnects the account: later completions route payouts without a provider route (pending tasks then fail and can be retried). */
export async function removePaymentConnection(organisationId: string, actor: Actor): Promise<void> {
  const db = await database();
  await db.$transaction(async (tx) => {
    const removed = await tx.paymentProviderConnection.deleteMany({ where: { organisationId } });
    if (removed.count === 0) return;
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "setting",
      entityId: null,
      action: "removed",
      values: { setting: "payment_provider" },
      summary: "Payment provider connection removed",
      details: { setting: "payment_provider" },
    });
  });
}

export type PaymentConnectionTest = { ok: boolean; message: string };

/** "Test connection": asks Mollie for the stored key's profile (through the guarded client); changes nothing. */
export async function testPaymentConnection(organisationId: string): Promise<PaymentConnectionTest> {
  const connection = await paymentConnectionOf(organisationId);
  if (!connection) return { ok: false, message: "No payment provider is connected." };
  try {
    const profile = await mollieProfile(connection);
    return { ok: true, message: `Connected to Mollie profile ${profile.name ? `"${profile.name}" ` : ""}(${profile.id}${profile.mode ? `, ${profile.mode} mode` : ""}).` };
  } catch (error) {
    if (error instanceof MollieCallError) return { ok: false, message: error.message };
    throw error;
  }
}

/** A pharmacy's Mollie organization id (org_…), or null to clear it; another organisation's pharmacy is not found. Audited. */
export async function setPharmacyMollieOrganization(organisationId: string, actor: Actor, pharmacyId: string, value: string | null): Promise<string | null> {
  const mollieOrganizationId = value?.trim() || null;
  if (mollieOrganizationId !== null && !ORGANIZATION_ID.test(mollieOrganizationId)) {
    throw ValidationError.field("mollieOrganizationId", errorText("payouts.organizationIdShape"));
  }
  const db = await database();
  return db.$transaction(async (tx) => {
    const pharmacy = await tx.pharmacy.findFirst({ where: { id: pharmacyId, organisationId }, select: { displayName: true, mollieOrganizationId: true } });
    if (!pharmacy) throw new NotFoundError("Pharmacy not found");
    if (pharmacy.mollieOrganizationId === mollieOrganizationId) return mollieOrganizationId;
    await tx.pharmacy.update({ where: { id: pharmacyId }, data: { mollieOrganizationId } });
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "pharmacy",
      entityId: pharmacyId,
      action: "changed",
      values: { name: pharmacy.displayName, fields: "Mollie organization id" },
      summary: `Pharmacy "${pharmacy.displayName}" changed: Mollie organization id`,
      details: { changed: ["mollie organization id"], mollieOrganizationId },
    });
    return mollieOrganizationId;
  });
}
