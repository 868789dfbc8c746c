import type { z } from "zod";
import { guardedRequest, readCapped } from "@/server/http/guarded-client";
import { BlockedTargetError } from "@/server/http/target-guard";

/**
 * How every call of the Cloud Signature Consortium API v2 travels: a POST to a URL below the trust
 * service's base URL (an admin enters it, so through the SSRF-guarded client like every such
 * destination; docs/security.md#outgoing-requests), JSON both ways (oauth2/token: a form, RFC 6749),
 * the answer read up to a size cap and checked against the shape the specification gives it.
 * A refusal carries the service's {error, error_description} (CSC v2 §10.1, RFC 6749 §5.2).
 *
 * The calls run while a prescription is locked (decisions.ts signs inside its transaction), so each
 * is short: TIMEOUT_MS, and a signature takes at most three (token, authorize, signHash).
 */
export const CSC_TIMEOUT_MS = 8_000;
const MAX_RESPONSE_BYTES = 1024 * 1024;
const USER_AGENT = "rx-fulfilment-signing/1";

/**
 * Why a call failed: the service refused it (an HTTP 4xx with its error code), could not be asked
 * or failed itself (no answer, a timeout, a 5xx: `unavailable`), the guard refused the address
 * (`blocked`), or its answer was not what the specification says (`malformed`).
 */
export class CscCallError extends Error {
  constructor(
    readonly kind: "refused" | "unavailable" | "blocked" | "malformed",
    message: string,
    readonly httpStatus: number | null = null,
    /** The service's `error` code (invalid_request, invalid_otp, …) and its `error_description`. */
    readonly error: string | null = null,
    readonly description: string | null = null,
  ) {
    super(message);
  }
}

export type CscBody = { json: unknown } | { form: Record<string, string> };

/** Resolves `path` below the base URL (a base without a trailing slash is treated as a folder). */
export function cscUrl(baseUrl: string, path: string): URL {
  return new URL(path, baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
}

export async function cscPost<T>(url: URL, body: CscBody, shape: z.ZodType<T>, accessToken?: string): Promise<T> {
  let response: Awaited<ReturnType<typeof guardedRequest>>;
  try {
    response = await guardedRequest(url, {
      method: "POST",
      headers: {
        accept: "application/json",
        "user-agent": USER_AGENT,
        "content-type": "json" in body ? "application/json" : "application/x-www-form-urlencoded",
        ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
      },
      body: "json" in body ? JSON.stringify(body.json) : new URLSearchParams(body.form).toString(),
      signal: AbortSignal.timeout(CSC_TIMEOUT_MS),
      timeoutMs: CSC_TIMEOUT_MS,
    });
  } catch (error) {
    throw unanswered(error);
  }
  const text = await readCapped(response.body, Number(response.headers["content-length"] ?? 0), MAX_RESPONSE_BYTES).catch(() => {
    throw new CscCallError("unavailable", "The trust service's answer broke off.");
  });
  if (text === null) throw new CscCallError("malformed", "The trust service's answer was too large.", response.statusCode);
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = undefined;
  }
  const status = response.statusCode;
  if (status >= 200 && status < 300) {
    const parsed = shape.safeParse(json);
    if (!parsed.success) {
      const where = parsed.error.issues[0]?.path.join(".") || "body";
      throw new CscCallError("malformed", `The trust service's answer to ${url.pathname} is not what the CSC API specifies (${where}).`, status);
    }
    return parsed.data;
  }
  const refusal = json && typeof json === "object" ? (json as { error?: unknown; error_description?: unknown }) : {};
  const error = typeof refusal.error === "string" ? refusal.error.slice(0, 100) : null;
  const description = typeof refusal.error_description === "string" ? refusal.error_description.slice(0, 500) : null;
  const said = [description, error && `(${error})`].filter(Boolean).join(" ");
  if (status >= 500 || status === 429) {
    throw new CscCallError("unavailable", `The trust service answered HTTP ${status}${said ? `: ${said}` : ""}.`, status, error, description);
  }
  throw new CscCallError("refused", `The trust service refused the request (HTTP ${status})${said ? `: ${said}` : ""}.`, status, error, description);
}

/** A failure without an answer: the guard's refusal, else a timeout or a connection error. */
function unanswered(error: unknown): CscCallError {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof BlockedTargetError) return new CscCallError("blocked", e.message);
  }
  const e = error as { name?: string; code?: string; cause?: { code?: string } };
  if (e?.name === "TimeoutError" || e?.name === "AbortError" || e?.code === "UND_ERR_CONNECT_TIMEOUT") {
    return new CscCallError("unavailable", `The trust service did not answer within ${CSC_TIMEOUT_MS / 1000} s.`);
  }
  const code = e?.code ?? e?.cause?.code;
  return new CscCallError("unavailable", `The trust service could not be reached${code ? ` (${code})` : ""}.`);
}
