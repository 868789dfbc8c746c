import { errorText } from "@/i18n/error-text";
import { checkOutgoingTarget } from "@/server/http/target-guard";
import { database, Prisma, type Tx } from "@/server/db/client";
import { isUniqueViolation } from "@/server/db/errors";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { FieldErrorCollector, NotFoundError, ValidationError } from "@/server/domain/errors";
import { connectorHeaderNames, openConnectorSetting, sealConnectorSetting, systemConnectorSchema, testConnector, type SystemConnectorSetting } from "@/server/domain/pharmacy-system/registry";
import type { ConnectionTestResult } from "@/server/domain/pharmacy-system/http-connector";
import { pharmacyAddressSchema, type PharmacyAddress } from "./address";

/**
 * The organisation's pharmacies as the admin tool manages them: name, e-mail, postal address, group,
 * location id (unique per organisation) and the pharmacy-system connector of the automatic status
 * check. A connector's header values (they usually carry credentials) are never shown back: the
 * admin sees the header names, and an edit without headers keeps the stored ones.
 */

/** The connector as the admin edits it; headers undefined keeps the stored ones. */
export type ConnectorInput = { url: string; headers?: Record<string, string>; timeoutMs?: number } | null;

export type PharmacyFields = {
  displayName: string;
  email: string | null;
  address: PharmacyAddress | null;
  groupId: string | null;
  locationId: string | null;
  systemConnector: ConnectorInput;
};

const locationTaken = () => ValidationError.field("locationId", errorText("pharmacies.locationTaken"));

const pharmacySelect = {
  id: true,
  displayName: true,
  email: true,
  address: true,
  locationId: true,
  systemConnector: true,
  createdAt: true,
  updatedAt: true,
  group: { select: { id: true, displayName: true } },
  _count: { select: { users: true } },
} as const satisfies Prisma.PharmacySelect;

type PharmacyRow = Prisma.PharmacyGetPayload<{ select: typeof pharmacySelect }>;

/** The connector as shown: type, URL, timeout and header names (no values). */
export type ConnectorSummary = { type: string; url: string; headerNames: string[]; timeoutMs: number } | null;

function connectorSummary(value: unknown): ConnectorSummary {
  const parsed = openConnectorSetting(value);
  if (value === null || value === undefined || !parsed.success) return null;
  return { type: parsed.data.type, url: parsed.data.url, headerNames: connectorHeaderNames(value), timeoutMs: parsed.data.timeout_ms };
}

const shown = (row: PharmacyRow) => {
  const address = pharmacyAddressSchema.safeParse(row.address);
  return {
    id: row.id,
    displayName: row.displayName,
    email: row.email,
    address: address.success ? address.data : null,
    locationId: row.locationId,
    group: row.group,
    connector: connectorSummary(row.systemConnector),
    userCount: row._count.users,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
};
export type AdminPharmacy = ReturnType<typeof shown>;

export async function listAdminPharmacies(organisationId: string): Promise<AdminPharmacy[]> {
  const db = await database();
  const rows = await db.pharmacy.findMany({ where: { organisationId }, orderBy: [{ displayName: "asc" }, { id: "asc" }], select: pharmacySelect });
  return rows.map(shown);
}

export async function getAdminPharmacy(organisationId: string, pharmacyId: string): Promise<AdminPharmacy> {
  const db = await database();
  const row = await db.pharmacy.findFirst({ where: { id: pharmacyId, organisationId }, select: pharmacySelect });
  if (!row) throw new NotFoundError("Pharmacy not found");
  return shown(row);
}

/**
 * The connector for an input, validated with the status check's schema and the SSRF guard, its
 * header values in plain text (sealConnectorSetting seals them for the row).
 */
async function connectorValue(input: ConnectorInput, stored: unknown): Promise<SystemConnectorSetting | null> {
  if (!input) return null;
  const previous = openConnectorSetting(stored);
  const headers = input.headers ?? (previous.success ? previous.data.headers : {});
  const candidate = { type: "http", url: input.url, headers, ...(input.timeoutMs !== undefined ? { timeout_ms: input.timeoutMs } : {}) };
  const parsed = systemConnectorSchema.safeParse(candidate);
  const errors = new FieldErrorCollector();
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] === "timeout_ms" ? "timeoutMs" : String(issue.path[0] ?? "url");
      errors.add(["systemConnector", key], issue.message);
    }
    throw new ValidationError(errors.fields);
  }
  const blocked = await checkOutgoingTarget(parsed.data.url);
  if (blocked) throw new ValidationError({ systemConnector: { url: [blocked] } });
  return parsed.data;
}

async function checkGroup(tx: Tx, organisationId: string, groupId: string | null): Promise<void> {
  if (groupId && !(await tx.pharmacyGroup.findFirst({ where: { id: groupId, organisationId }, select: { id: true } }))) {
    throw new NotFoundError("Pharmacy group not found");
  }
}

async function uniqueLocation<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw locationTaken();
    throw error;
  }
}

async function checkLocationFree(tx: Tx, organisationId: string, locationId: string | null, exceptId?: string): Promise<void> {
  if (!locationId) return;
  const taken = await tx.pharmacy.findFirst({ where: { organisationId, locationId, ...(exceptId ? { id: { not: exceptId } } : {}) }, select: { id: true } });
  if (taken) throw locationTaken();
}

export async function createPharmacy(organisationId: string, adminUserId: string, fields: PharmacyFields): Promise<AdminPharmacy> {
  const connector = await connectorValue(fields.systemConnector, null);
  const systemConnector = connector && sealConnectorSetting(connector);
  const db = await database();
  return uniqueLocation(() =>
    db.$transaction(async (tx) => {
      await checkGroup(tx, organisationId, fields.groupId);
      await checkLocationFree(tx, organisationId, fields.locationId);
      const row = await tx.pharmacy.create({
        data: {
          organisationId,
          displayName: fields.displayName,
          email: fields.email,
          address: fields.address ?? undefined,
          groupId: fields.groupId,
          locationId: fields.locationId,
          systemConnector: systemConnector ?? undefined,
        },
        select: pharmacySelect,
      });
      await recordAuditEvent(tx, organisationId, { type: "USER", userId: adminUserId }, {
        entity: "pharmacy",
        entityId: row.id,
        action: "created",
        summary: `Pharmacy "${row.displayName}" created`,
        values: { name: row.displayName },
      });
      return shown(row);
    }),
  );
}

/** JSON with sorted keys: stored JSON (jsonb) comes back with its keys in another order. */
function stableJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

/** Names of the fields an edit changed, for the audit summary (never the connector's header values). */
function changedFields(before: PharmacyRow & { groupId: string | null }, fields: PharmacyFields, connector: unknown): string[] {
  const changed: string[] = [];
  if (before.displayName !== fields.displayName) changed.push("name");
  if (before.email !== fields.email) changed.push("e-mail");
  if (stableJson(before.address) !== stableJson(fields.address)) changed.push("address");
  if (before.groupId !== fields.groupId) changed.push("group");
  if (before.locationId !== fields.locationId) changed.push("location id");
  // Compared opened: a value sealed again has a new ciphertext but is no change.
  const opened = openConnectorSetting(before.systemConnector);
  if (stableJson(opened.success ? opened.data : null) !== stableJson(connector)) changed.push("system connector");
  return changed;
}

export async function changePharmacy(organisationId: string, adminUserId: string, pharmacyId: string, fields: PharmacyFields): Promise<AdminPharmacy> {
  const db = await database();
  const current = await db.pharmacy.findFirst({ where: { id: pharmacyId, organisationId }, select: { systemConnector: true } });
  if (!current) throw new NotFoundError("Pharmacy not found");
  const connector = await connectorValue(fields.systemConnector, current.systemConnector);
  const systemConnector = connector && sealConnectorSetting(connector);
  return uniqueLocation(() =>
    db.$transaction(async (tx) => {
      const before = await tx.pharmacy.findFirst({ where: { id: pharmacyId, organisationId }, select: { ...pharmacySelect, groupId: true } });
      if (!before) throw new NotFoundError("Pharmacy not found");
      await checkGroup(tx, organisationId, fields.groupId);
      await checkLocationFree(tx, organisationId, fields.locationId, pharmacyId);
      const row = await tx.pharmacy.update({
        where: { id: pharmacyId },
        data: {
          displayName: fields.displayName,
          email: fields.email,
          address: fields.address ?? Prisma.DbNull,
          groupId: fields.groupId,
          locationId: fields.locationId,
          systemConnector: systemConnector ?? Prisma.DbNull,
        },
        select: pharmacySelect,
      });
      const changed = changedFields(before, fields, connector);
      if (changed.length > 0) {
        await recordAuditEvent(tx, organisationId, { type: "USER", userId: adminUserId }, {
          entity: "pharmacy",
          entityId: row.id,
          action: "changed",
          values: { name: row.displayName, fields: changed.join(", ") },
          summary: `Pharmacy "${row.displayName}" changed: ${changed.join(", ")}`,
          details: { changed },
        });
      }
      return shown(row);
    }),
  );
}

/** A short timeout: the admin waits for the answer. */
export const CONNECTION_TEST_TIMEOUT_MS = 5_000;

/**
 * "Test connection": asks the pharmacy's system as the status check does (server/domain/pharmacy-system),
 * through the guarded client (no loopback, private or link-local address unless
 * WEBHOOK_ALLOW_PRIVATE_TARGETS; the guard's refusal is the message). Tests the stored setting; changes nothing.
 */
export async function testPharmacyConnection(organisationId: string, pharmacyId: string): Promise<ConnectionTestResult> {
  const db = await database();
  const pharmacy = await db.pharmacy.findFirst({ where: { id: pharmacyId, organisationId }, select: { systemConnector: true } });
  if (!pharmacy) throw new NotFoundError("Pharmacy not found");
  const parsed = openConnectorSetting(pharmacy.systemConnector);
  if (pharmacy.systemConnector === null || !parsed.success) return { ok: false, message: "No valid pharmacy system connector is set." };
  return testConnector(parsed.data, CONNECTION_TEST_TIMEOUT_MS);
}
