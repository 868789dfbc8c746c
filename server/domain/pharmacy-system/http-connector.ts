import { CARRIERS } from "@/server/domain/pharmacy-orders/complete";
import { guardedRequest, readCapped } from "@/server/http/guarded-client";
import { BlockedTargetError } from "@/server/http/target-guard";
import { log } from "@/server/log";
import { BLOCKED, UNKNOWN, type CheckedPharmacyOrder, type PharmacySystemConnector, type PharmacySystemReport } from "./connector";

/**
 * The HTTP contract a pharmacy system implements for the automatic status check:
 *
 *   GET {url}/orders/{pharmacy_order_uid}?name={pharmacy_order_name}
 *   Accept: application/json
 *   (plus the configured headers, e.g. Authorization)
 *
 * answered with 200 and a JSON object:
 *
 *   {"status": "shipped", "tracking_url": "https://…", "carrier": "DHL"}
 *
 * `status` (case-insensitive): shipped, completed, cancelled (or canceled) change our order; any
 * other string (open, in_progress, …) means "still in work". `tracking_url` (http/https) and
 * `carrier` (DHL, DPD, UPS, Hermes, FedEx, Other; anything else counts as Other) are optional and
 * used when the order completes. Any other answer — a non-2xx status (redirects are not followed),
 * a body that is not such an object, a body over 64 KiB, no answer within the timeout, a failed
 * connection — is "unknown" and changes nothing; it is logged, never thrown. The request goes
 * through the guarded client (server/http/guarded-client.ts): a URL whose host now resolves to a
 * loopback, private or link-local address is not connected to at all ("blocked").
 */
export type HttpConnectorConfig = {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
};

export const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 64 * 1024;
const USER_AGENT = "rx-fulfilment-status-check/1";

const STATUS_WORDS: Record<string, PharmacySystemReport["status"]> = {
  shipped: "shipped",
  completed: "completed",
  cancelled: "cancelled",
  canceled: "cancelled",
};

/** The report a response body stands for; null when the body is not a status object. */
export function parseStatusBody(text: string): PharmacySystemReport | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) return null;
  const { status, tracking_url: trackingUrl, carrier } = body as Record<string, unknown>;
  if (typeof status !== "string" || !status.trim()) return null;
  const report: PharmacySystemReport = { status: STATUS_WORDS[status.trim().toLowerCase()] ?? "open" };
  if (typeof trackingUrl === "string" && isHttpUrl(trackingUrl.trim())) {
    report.trackingUrl = trackingUrl.trim();
    const named = typeof carrier === "string" ? CARRIERS.find((c) => c.toLowerCase() === carrier.trim().toLowerCase()) : undefined;
    report.carrier = named ?? "Other";
  }
  return report;
}

function isHttpUrl(value: string): boolean {
  return value.length <= 2048 && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

/** The guard's refusal, when that is why a request failed. */
function blockedBy(error: unknown): BlockedTargetError | null {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof BlockedTargetError) return e;
  }
  return null;
}

/** A failure's class and code for the log; never the URL or headers, which may carry credentials. */
function describe(error: unknown): { errorClass: string; code?: string } {
  const e = error as { name?: string; code?: string; cause?: { code?: string } };
  const code = e?.code ?? e?.cause?.code;
  return { errorClass: e?.name ?? typeof error, ...(code ? { code } : {}) };
}

/** What one request to the pharmacy system gave: an answer (status and report, if usable) or a failure. */
type Asked = { answered: true; httpStatus: number; report: PharmacySystemReport | null } | { answered: false; error: unknown };

/** The contract's request for one order; never throws. */
async function ask(config: HttpConnectorConfig, order: { uid: string; name: string }, timeoutMs: number): Promise<Asked> {
  const url = new URL(`${config.url.replace(/\/+$/, "")}/orders/${encodeURIComponent(order.uid)}?name=${encodeURIComponent(order.name)}`);
  try {
    const response = await guardedRequest(url, {
      method: "GET",
      headers: { accept: "application/json", "user-agent": USER_AGENT, ...config.headers },
      signal: AbortSignal.timeout(timeoutMs),
      timeoutMs,
    });
    if (response.statusCode < 200 || response.statusCode > 299) {
      await response.body.dump({ limit: 0 }).catch(() => undefined);
      return { answered: true, httpStatus: response.statusCode, report: null };
    }
    const text = await readCapped(response.body, Number(response.headers["content-length"] ?? 0), MAX_RESPONSE_BYTES);
    return { answered: true, httpStatus: response.statusCode, report: text === null ? null : parseStatusBody(text) };
  } catch (error) {
    return { answered: false, error };
  }
}

export function httpConnector(config: HttpConnectorConfig, context: { pharmacyId: string }): PharmacySystemConnector {
  return {
    type: "http",
    async fetchStatus(order: CheckedPharmacyOrder): Promise<PharmacySystemReport> {
      const fields = { pharmacyId: context.pharmacyId, pharmacyOrderId: order.uid };
      const asked = await ask(config, order, config.timeoutMs);
      if (!asked.answered) {
        const blocked = blockedBy(asked.error);
        if (blocked) {
          log.warn("pharmacy system address refused by the outgoing-request guard", { ...fields, errorClass: "blocked_target", reason: blocked.message });
          return BLOCKED;
        }
        log.warn("pharmacy system could not be asked for an order status", { ...fields, ...describe(asked.error) });
        return UNKNOWN;
      }
      if (asked.httpStatus < 200 || asked.httpStatus > 299) {
        log.warn("pharmacy system answered the status check with an error status", { ...fields, httpStatus: asked.httpStatus });
        return UNKNOWN;
      }
      if (!asked.report) {
        log.warn("pharmacy system answered the status check with an unusable body", { ...fields, httpStatus: asked.httpStatus });
        return UNKNOWN;
      }
      return asked.report;
    },
  };
}

/** The order a connection test asks for: no such order exists, so a 404 is the expected answer. */
export const CONNECTION_TEST_ORDER = { uid: "connection-test", name: "connection-test" };

export type ConnectionTestResult = { ok: true; message: string } | { ok: false; message: string };

/**
 * The admin tool's "Test connection": the status check's own request for a made-up order, with a
 * short timeout. Success is an answer of the contract: a status object (2xx) or 404 (the system
 * does not know the order). Anything else is the error shown to the admin (never the URL or headers).
 */
export async function testHttpConnector(config: HttpConnectorConfig, timeoutMs: number): Promise<ConnectionTestResult> {
  const asked = await ask(config, CONNECTION_TEST_ORDER, timeoutMs);
  if (!asked.answered) {
    const blocked = blockedBy(asked.error);
    if (blocked) return { ok: false, message: blocked.message };
    const { errorClass, code } = describe(asked.error);
    if (errorClass === "TimeoutError" || errorClass === "AbortError") return { ok: false, message: `No answer within ${timeoutMs / 1000} s.` };
    return { ok: false, message: `Could not connect${code ? ` (${code})` : ""}.` };
  }
  if (asked.httpStatus === 404) return { ok: true, message: "The pharmacy system answered (HTTP 404: it does not know the test order, as expected)." };
  if (asked.httpStatus >= 300 && asked.httpStatus < 400) return { ok: false, message: `HTTP ${asked.httpStatus}: redirects are not followed.` };
  if (asked.httpStatus < 200 || asked.httpStatus > 299) return { ok: false, message: `The pharmacy system answered HTTP ${asked.httpStatus}.` };
  if (!asked.report) return { ok: false, message: `The pharmacy system answered HTTP ${asked.httpStatus}, but not with a status object.` };
  return { ok: true, message: `The pharmacy system answered (HTTP ${asked.httpStatus}, status "${asked.report.status}").` };
}
