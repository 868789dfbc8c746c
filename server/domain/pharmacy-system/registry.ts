import { z } from "zod";
import type { Prisma } from "@/server/db/generated/client";
import { database } from "@/server/db/client";
import { openSecret, sealSecret } from "@/server/domain/webhooks/secret-box";
import { log } from "@/server/log";
import type { PharmacySystemConnector } from "./connector";
import { DEFAULT_TIMEOUT_MS, httpConnector, testHttpConnector, type ConnectionTestResult } from "./http-connector";

/**
 * Builds a pharmacy's connector from `Pharmacy.systemConnector` (set by an administrator):
 *
 *   {"type": "http", "url": "https://pms.example.com/api", "headers": {"Authorization": "Bearer …"}, "timeout_ms": 10000}
 *
 * `url` is http(s) without user info; `headers` (optional) are sent with every request;
 * `timeout_ms` (optional, 100–60000, default 10000) bounds each request. null (or JSON null)
 * means no pharmacy system is connected. A value that does not fit is logged and treated as no
 * connector, so one bad setting cannot stop the check for other pharmacies.
 *
 * At rest the header values are sealed with ENCRYPTION_KEY as every other secret (issue 36): the
 * row holds `sealed_headers` ({name: sealed value}) instead of `headers`. A row written before
 * holds plain `headers`: it is read as it is and sealed at start-up (sealPlainConnectorHeaders).
 */
const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "Not a valid header name.");
const headerValue = z.string().max(4096).regex(/^[^\r\n\0]*$/, "Header values may not contain line breaks.");

const httpConfig = z.object({
  type: z.literal("http"),
  url: z
    .string()
    .trim()
    .max(2048)
    .refine((value) => {
      if (!URL.canParse(value)) return false;
      const url = new URL(value);
      return /^https?:$/.test(url.protocol) && !url.username && !url.password;
    }, "Enter a valid http(s) URL without user info."),
  headers: z.record(headerName, headerValue).default({}),
  timeout_ms: z.number().int().min(100).max(60_000).default(DEFAULT_TIMEOUT_MS),
});

/** The setting's shape (the admin tool validates a new setting with it). */
export const systemConnectorSchema = z.discriminatedUnion("type", [httpConfig]);

export type SystemConnectorSetting = z.output<typeof systemConnectorSchema>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A stored setting with its header values opened, parsed with the setting's schema. A sealed value
 * that does not open (another ENCRYPTION_KEY) makes the setting invalid, never its ciphertext a header.
 */
export function openConnectorSetting(stored: unknown): ReturnType<typeof systemConnectorSchema.safeParse> {
  if (!isObject(stored) || !isObject(stored.sealed_headers)) return systemConnectorSchema.safeParse(stored);
  const { sealed_headers: sealed, ...rest } = stored;
  const opened: Record<string, unknown> = { ...(isObject(rest.headers) ? rest.headers : {}) };
  for (const [name, value] of Object.entries(sealed)) {
    try {
      opened[name] = typeof value === "string" ? openSecret(value) : value;
    } catch {
      return systemConnectorSchema.safeParse({ ...rest, headers: { [name]: null } });
    }
  }
  return systemConnectorSchema.safeParse({ ...rest, headers: opened });
}

/** A setting as stored: its header values sealed, no plain `headers`. */
export function sealConnectorSetting(setting: SystemConnectorSetting): Prisma.InputJsonObject {
  const { headers, ...rest } = setting;
  return { ...rest, sealed_headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, sealSecret(value)])) };
}

/** The header names of a stored setting (plain or sealed), for the admin's view: never their values. */
export function connectorHeaderNames(stored: unknown): string[] {
  if (!isObject(stored)) return [];
  return [...new Set([...Object.keys(isObject(stored.headers) ? stored.headers : {}), ...Object.keys(isObject(stored.sealed_headers) ? stored.sealed_headers : {})])];
}

/**
 * Seals the header values of settings stored in plain text (written before issue 36). Run at every
 * start-up; a row is rewritten only if it still holds plain `headers` as read (a concurrent edit wins).
 * Returns how many rows it sealed.
 */
export async function sealPlainConnectorHeaders(): Promise<number> {
  const db = await database();
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Pharmacy" WHERE jsonb_typeof("systemConnector") = 'object' AND "systemConnector" ? 'headers'`;
  let sealed = 0;
  for (const { id } of rows) {
    const row = await db.pharmacy.findUnique({ where: { id }, select: { systemConnector: true } });
    const stored = row?.systemConnector;
    if (!isObject(stored) || !isObject(stored.headers)) continue;
    const { headers, ...rest } = stored;
    const sealedHeaders = { ...(isObject(rest.sealed_headers) ? rest.sealed_headers : {}) };
    for (const [name, value] of Object.entries(headers)) sealedHeaders[name] = typeof value === "string" ? sealSecret(value) : value;
    const next = { ...rest, sealed_headers: sealedHeaders } as Prisma.InputJsonObject;
    const updated = await db.pharmacy.updateMany({ where: { id, systemConnector: { equals: stored as Prisma.InputJsonValue } }, data: { systemConnector: next } });
    sealed += updated.count;
  }
  if (sealed > 0) log.info("sealed the plain header values of pharmacy system connectors", { pharmacies: sealed });
  return sealed;
}

export function connectorFor(pharmacy: { id: string; systemConnector: unknown }): PharmacySystemConnector | null {
  if (pharmacy.systemConnector === null || pharmacy.systemConnector === undefined) return null;
  const parsed = openConnectorSetting(pharmacy.systemConnector);
  if (!parsed.success) {
    log.warn("pharmacy system connector setting is invalid; the pharmacy is not checked", {
      pharmacyId: pharmacy.id,
      problems: parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`),
    });
    return null;
  }
  const config = parsed.data;
  switch (config.type) {
    case "http":
      return httpConnector({ url: config.url, headers: config.headers, timeoutMs: config.timeout_ms }, { pharmacyId: pharmacy.id });
  }
}

/** The admin tool's connection test of a setting (parsed with the same schema); an invalid setting is its error. */
export async function testConnector(systemConnector: unknown, timeoutMs: number): Promise<ConnectionTestResult> {
  const parsed = openConnectorSetting(systemConnector);
  if (!parsed.success) return { ok: false, message: "The connector setting is not valid." };
  const config = parsed.data;
  switch (config.type) {
    case "http":
      return testHttpConnector({ url: config.url, headers: config.headers, timeoutMs: config.timeout_ms }, Math.min(timeoutMs, config.timeout_ms));
  }
}
