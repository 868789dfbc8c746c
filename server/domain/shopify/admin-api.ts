import { createAdminApiClient } from "@shopify/admin-api-client";
import { guardedRequest } from "@/server/http/guarded-client";
import { realWait, retryAfterMs, type Wait } from "@/server/http/retry-after";

/**
 * Shopify's Admin GraphQL API through Shopify's own client (@shopify/admin-api-client), at one
 * pinned API version. Every request leaves through the guarded client (server/http/guarded-client.ts):
 * the client's customFetchApi is built on it, so a store address that resolves to a loopback,
 * private or link-local address is refused unless WEBHOOK_ALLOW_PRIVATE_TARGETS allows it (the
 * stand-in in tests/shopify-stand-in.ts is on 127.0.0.1).
 *
 * Rate limits (shopify.dev/docs/api/usage/limits): a 429 answer is retried after its Retry-After
 * seconds; a THROTTLED error (HTTP 200, `extensions.code` THROTTLED, with `extensions.cost`) is
 * retried once the bucket has restored the query's cost at the announced restore rate. At most
 * MAX_RETRIES retries, each wait at most MAX_WAIT_MS; then the call fails (a background task retries
 * it later).
 */
export const SHOPIFY_API_VERSION = "2026-10";

const REQUEST_TIMEOUT_MS = 15_000;
const MAX_RETRIES = 3;
const MAX_WAIT_MS = 30_000;
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

export type ShopifyCredentials = { storeUrl: string; accessToken: string };

/**
 * A failed call: the message is safe to show an admin (never the token or the URL's secrets).
 * `retryable`: the same call may succeed later (no answer, the rate limit, a 5xx); otherwise Shopify
 * refused it (a token, scope or store problem, a GraphQL or user error) and will refuse it again.
 */
export class ShopifyApiError extends Error {
  override name = "ShopifyApiError";
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
  }
}

type GraphQLError = { message?: string; extensions?: { code?: string } };
type QueryCost = { requestedQueryCost?: number; throttleStatus?: { currentlyAvailable?: number; restoreRate?: number } };

/** The wait a THROTTLED answer announces (its `extensions.cost`): until the bucket holds the query's cost again. */
export function throttledWaitMs(cost: QueryCost | undefined): number {
  const requested = cost?.requestedQueryCost ?? 0;
  const available = cost?.throttleStatus?.currentlyAvailable ?? 0;
  const rate = cost?.throttleStatus?.restoreRate ?? 0;
  if (rate <= 0) return 1_000;
  return Math.max(0, Math.ceil(((requested - available) / rate) * 1000));
}

/** The client's fetch on the guarded client, sent to the store's own origin (http is kept for a stand-in). */
function guardedFetch(storeUrl: string) {
  const origin = new URL(storeUrl);
  return async (url: string, init?: { method?: string; headers?: HeadersInit; body?: string; signal?: AbortSignal }): Promise<Response> => {
    const target = new URL(url);
    target.protocol = origin.protocol;
    target.host = origin.host;
    const response = await guardedRequest(target, {
      method: (init?.method ?? "POST") as "POST",
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: init?.body,
      signal: init?.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      timeoutMs: REQUEST_TIMEOUT_MS,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > MAX_RESPONSE_BYTES) {
        await response.body.dump({ limit: 0 }).catch(() => undefined);
        throw new ShopifyApiError("Shopify's answer was too large.");
      }
      chunks.push(chunk);
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : String(value));
    }
    return new Response(response.statusCode === 204 ? null : Buffer.concat(chunks), { status: response.statusCode, headers });
  };
}

export type ShopifyAdminApi = {
  /** Runs one query or mutation and returns its data; throws a ShopifyApiError on anything else. */
  request<T>(query: string, variables?: Record<string, unknown>): Promise<T>;
};

export function shopifyAdminApi(credentials: ShopifyCredentials, wait: Wait = realWait): ShopifyAdminApi {
  const client = createAdminApiClient({
    storeDomain: credentials.storeUrl,
    apiVersion: SHOPIFY_API_VERSION,
    accessToken: credentials.accessToken,
    userAgentPrefix: "rx-fulfilment",
    customFetchApi: guardedFetch(credentials.storeUrl),
  });
  return {
    async request<T>(query: string, variables?: Record<string, unknown>): Promise<T> {
      for (let retry = 0; ; retry++) {
        const answer = await client.request<T>(query, variables ? { variables } : undefined);
        const errors = answer.errors;
        if (!errors) return answer.data as T;
        const status = errors.networkStatusCode;
        const graphQLErrors = (errors.graphQLErrors ?? []) as GraphQLError[];
        const throttled = graphQLErrors.find((e) => e.extensions?.code === "THROTTLED");
        let waitMs: number | null = null;
        if (status === 429) waitMs = retryAfterMs(errors.response?.headers.get("retry-after") ?? null);
        else if (throttled) waitMs = throttledWaitMs((answer.extensions as { cost?: QueryCost } | undefined)?.cost);
        if (waitMs !== null && retry < MAX_RETRIES && waitMs <= MAX_WAIT_MS) {
          await wait(waitMs);
          continue;
        }
        const retryable = status === undefined || status === 429 || status >= 500 || Boolean(throttled);
        throw new ShopifyApiError(describeFailure(status, graphQLErrors, errors.message), retryable);
      }
    },
  };
}

function describeFailure(status: number | undefined, graphQLErrors: GraphQLError[], message: string | undefined): string {
  if (status === 401) return "Shopify refused the access token (HTTP 401).";
  if (status === 403) return "The access token lacks a scope this call needs (HTTP 403).";
  if (status === 404) return "No Shopify store answers at this address (HTTP 404).";
  if (status === 429 || graphQLErrors.some((e) => e.extensions?.code === "THROTTLED")) return "Shopify's rate limit was still exceeded after retrying.";
  const first = graphQLErrors.find((e) => typeof e.message === "string")?.message;
  if (first) return `Shopify answered with an error: ${first.slice(0, 300)}`;
  if (status) return `Shopify answered HTTP ${status}.`;
  // No answer: the guard's refusal, a timeout or a failed connection (the client's message names it).
  return `Shopify could not be reached${message ? ` (${message.replace(/^GraphQL Client: /, "").slice(0, 200)})` : ""}.`;
}
