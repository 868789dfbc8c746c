import { z } from "zod";
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

export function connectorFor(pharmacy: { id: string; systemConnector: unknown }): PharmacySystemConnector | null {
  if (pharmacy.systemConnector === null || pharmacy.systemConnector === undefined) return null;
  const parsed = systemConnectorSchema.safeParse(pharmacy.systemConnector);
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
  const parsed = systemConnectorSchema.safeParse(systemConnector);
  if (!parsed.success) return { ok: false, message: "The connector setting is not valid." };
  const config = parsed.data;
  switch (config.type) {
    case "http":
      return testHttpConnector({ url: config.url, headers: config.headers, timeoutMs: config.timeout_ms }, Math.min(timeoutMs, config.timeout_ms));
  }
}
