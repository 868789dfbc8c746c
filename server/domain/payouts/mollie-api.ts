import { MollieApiError, type Route, type RouteCreateParams } from "@mollie/api-client";
import { guardedRequest, readCapped } from "@/server/http/guarded-client";
import { realWait, retryAfterMs, type Wait } from "@/server/http/retry-after";
import { BlockedTargetError } from "@/server/http/target-guard";

/**
 * The two calls of Mollie's API (https://docs.mollie.com/reference) that split payouts use:
 *
 *   POST {endpoint}/payments/{paymentId}/routes   (Delayed Routing API: "Create a delayed route")
 *   GET  {endpoint}/profiles/me                   (the connection test: the API key's profile)
 *
 * with `Authorization: Bearer <API key>`, JSON bodies, and on the POST an `Idempotency-Key`.
 * Request and answer shapes are those of the vendor's maintained client, @mollie/api-client
 * (RouteCreateParams, Route), and its ApiError reads Mollie's error body ({status, title, detail,
 * field}). Its transport is not used: it cannot be given our SSRF-guarded client (no fetch or agent
 * option), refuses http: endpoints and trusts only the CA bundle it ships, and retries 5xx answers
 * with sleeps inside the call (docs/decisions/payouts.md#split-payouts). So the requests go
 * through the one guarded client (server/http/guarded-client.ts), and retries are the task
 * runner's, with the same idempotency key every time. The one retry inside a call is Mollie's own
 * request to wait: a 429 is sent again after its Retry-After (as Shopify's client does,
 * server/domain/shopify/admin-api.ts), at most MAX_RATE_LIMIT_RETRIES times and only for a wait of
 * at most MAX_RETRY_WAIT_MS; a longer one, or a 429 after the retries, is the task runner's.
 */
export const MOLLIE_API_ENDPOINT = "https://api.mollie.com/v2/";
const TIMEOUT_MS = 15_000;
const USER_AGENT = "rx-fulfilment-payouts/1";
const MAX_RESPONSE_BYTES = 256 * 1024;
const MAX_RATE_LIMIT_RETRIES = 2;
const MAX_RETRY_WAIT_MS = 10_000;
/** The longest a call can take: every request timing out, and the longest waits between them (create-route.ts leases a payout for longer). */
export const MOLLIE_CALL_MAX_MS = (MAX_RATE_LIMIT_RETRIES + 1) * TIMEOUT_MS + MAX_RATE_LIMIT_RETRIES * MAX_RETRY_WAIT_MS;

export type MollieConnection = { apiEndpoint: string; apiKey: string };

/** Why a call failed, and whether the same call may succeed later (429, 5xx, no answer) or never will (other 4xx). */
export class MollieCallError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly httpStatus: number | null,
  ) {
    super(message);
  }
}

type RouteBody = Omit<RouteCreateParams, "paymentId" | "idempotencyKey" | "testmode">;

function endpointUrl(connection: MollieConnection, path: string): URL {
  const base = connection.apiEndpoint.endsWith("/") ? connection.apiEndpoint : `${connection.apiEndpoint}/`;
  return new URL(path, base);
}

type CallOptions = { body?: unknown; idempotencyKey?: string; wait?: Wait };

async function call(connection: MollieConnection, method: "GET" | "POST", path: string, options: CallOptions = {}) {
  for (let retry = 0; ; retry++) {
    const answer = await send(connection, method, path, options);
    const waitMs = answer.status === 429 ? retryAfterMs(answer.retryAfter) : null;
    if (waitMs !== null && retry < MAX_RATE_LIMIT_RETRIES && waitMs <= MAX_RETRY_WAIT_MS) {
      await (options.wait ?? realWait)(waitMs);
      continue;
    }
    return judge(answer, options.idempotencyKey);
  }
}

type Answer = { status: number; retryAfter: string | undefined; text: string };

async function send(connection: MollieConnection, method: "GET" | "POST", path: string, options: CallOptions): Promise<Answer> {
  let response: Awaited<ReturnType<typeof guardedRequest>>;
  try {
    response = await guardedRequest(endpointUrl(connection, path), {
      method,
      headers: {
        accept: "application/hal+json",
        authorization: `Bearer ${connection.apiKey}`,
        "user-agent": USER_AGENT,
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        ...(options.idempotencyKey ? { "idempotency-key": options.idempotencyKey } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
      timeoutMs: TIMEOUT_MS,
    });
  } catch (error) {
    throw unanswered(error);
  }
  const text = await readCapped(response.body, Number(response.headers["content-length"] ?? 0), MAX_RESPONSE_BYTES);
  if (text === null) throw new MollieCallError("Mollie's answer was too large.", true, response.statusCode);
  const retryAfter = response.headers["retry-after"];
  return { status: response.statusCode, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, text };
}

/** An answer as its data, or the MollieCallError it says. */
function judge({ status, text }: Answer, idempotencyKey: string | undefined): unknown {
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: judged by its status below.
  }
  if (status >= 200 && status < 300) return json;
  const retryable = status === 429 || status >= 500;
  if (json && typeof json === "object") {
    const apiError = MollieApiError.createFromResponse(json, idempotencyKey);
    throw new MollieCallError(`Mollie answered HTTP ${status}: ${apiError.message}${apiError.field ? ` (${apiError.field})` : ""}`, retryable, status);
  }
  throw new MollieCallError(`Mollie answered HTTP ${status}.`, retryable, status);
}

/** A failure without an answer: the guard's refusal (never retried), else a timeout or connection error (retried). */
function unanswered(error: unknown): MollieCallError {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof BlockedTargetError) return new MollieCallError(e.message, false, null);
  }
  const e = error as { name?: string; code?: string; cause?: { code?: string } };
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return new MollieCallError(`No answer from Mollie within ${TIMEOUT_MS / 1000} s.`, true, null);
  const code = e?.code ?? e?.cause?.code;
  return new MollieCallError(`Could not reach Mollie${code ? ` (${code})` : ""}.`, true, null);
}

/** Amounts as Mollie writes them: a decimal string with the currency's minor digits ("12.34" EUR). */
export function mollieAmount(minorUnits: number, currency: string): { value: string; currency: string } {
  const digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return { value: (minorUnits / 10 ** digits).toFixed(digits), currency };
}

/**
 * Creates a delayed route of `paymentId` and returns its id (crt_…). The idempotency key makes a
 * repeat of the same call (after a lost answer) return the first route instead of a second one.
 */
export async function createMollieRoute(connection: MollieConnection, paymentId: string, body: RouteBody, idempotencyKey: string, wait?: Wait): Promise<string> {
  const answer = (await call(connection, "POST", `payments/${encodeURIComponent(paymentId)}/routes`, { body, idempotencyKey, wait })) as Partial<Route> | null;
  const id = answer?.id;
  if (typeof id !== "string" || !id.startsWith("crt_")) throw new MollieCallError("Mollie's answer carried no route id.", true, null);
  return id;
}

/** The connection test: the profile the API key belongs to. */
export async function mollieProfile(connection: MollieConnection): Promise<{ id: string; name: string; mode: string }> {
  const answer = (await call(connection, "GET", "profiles/me")) as { id?: unknown; name?: unknown; mode?: unknown } | null;
  if (typeof answer?.id !== "string") throw new MollieCallError("Mollie's answer carried no profile.", false, null);
  return { id: answer.id, name: typeof answer.name === "string" ? answer.name : "", mode: typeof answer.mode === "string" ? answer.mode : "" };
}
