import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { errorTranslator, type ErrorKey } from "@/i18n/error-text";
import { resolveLocale } from "@/i18n/locales";
import { config } from "@/server/config";
import { TRPC_BODY_MAX_BYTES, TRPC_CSV_BODY_MAX_BYTES, TRPC_MODEL_BODY_MAX_BYTES } from "@/server/http/body-limits";
import { withApiSecurityHeaders } from "@/server/http/security-headers";
import { BodyAbortedError, BodyTooLargeError, readBodyText } from "@/server/rest/body";
import { log } from "@/server/log";
import { createContext, requestLanguages, type PortalUserResolver } from "./context";
import { appRouter } from "./router";

const TRPC_ENDPOINT = "/api/trpc";
const MAX_BATCH_SIZE = 20;
/**
 * The procedures that carry a large text, with their caps: a questionnaire model as the editor's
 * text (the cap leaves the model's size to the domain), an assortment CSV file.
 */
const LARGE_BODY_PROCEDURES = new Map([
  ["admin.questionnaires.publish", TRPC_MODEL_BODY_MAX_BYTES],
  ["admin.questionnaires.saveDraft", TRPC_MODEL_BODY_MAX_BYTES],
  ...["admin.pharmacyStock", "pharmacy.stock"].flatMap((stock) => ["importPreview", "importApply"].map((p) => [`${stock}.${p}`, TRPC_CSV_BODY_MAX_BYTES] as const)),
]);

/** A body over the cap is refused before tRPC reads it: 1 MiB, more when every procedure of the call (a batch names several) carries a large text. */
function bodyCapOf(request: Request): number {
  const names = new URL(request.url).pathname.slice(TRPC_ENDPOINT.length + 1).replace(/%2C/gi, ",").split(",");
  const caps = names.map((name) => LARGE_BODY_PROCEDURES.get(name));
  return caps.includes(undefined) ? TRPC_BODY_MAX_BYTES : Math.max(...(caps as number[]));
}

/**
 * A refusal before tRPC runs, in tRPC's error envelope so the client reads it like any other, in the
 * language the request names itself (cookie, Accept-Language: no database statement for a refusal).
 */
const REFUSALS = { BAD_REQUEST: [-32600, 400], FORBIDDEN: [-32003, 403], PAYLOAD_TOO_LARGE: [-32013, 413] } as const;
const refusal = (request: Request, code: keyof typeof REFUSALS, key: ErrorKey, headers?: Record<string, string>) => {
  const [rpcCode, httpStatus] = REFUSALS[code];
  const message = errorTranslator(resolveLocale({ saved: null, ...requestLanguages(request) }))(key);
  return Response.json({ error: { message, code: rpcCode, data: { code, httpStatus, fieldErrors: null } } }, { status: httpStatus, headers });
};

/**
 * A browser's cross-site POST carries an Origin header of another site: refused, whatever cookies
 * came with it. No Origin (server-side or non-browser clients) is allowed; the session cookie
 * (SameSite=Lax) is what authenticates.
 */
function crossSite(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (!origin || request.method === "GET" || request.method === "HEAD") return false;
  return origin !== new URL(request.url).origin && origin !== new URL(config().baseUrl).origin;
}

/**
 * Serves the portal procedures (appRouter) over HTTP: the body of app/api/trpc/[trpc]/route.ts.
 * Every answer carries the API security headers.
 */
export async function handleTrpcRequest(request: Request, resolveUser?: PortalUserResolver): Promise<Response> {
  return withApiSecurityHeaders(await answer(request, resolveUser));
}

async function answer(request: Request, resolveUser?: PortalUserResolver): Promise<Response> {
  if (crossSite(request)) return refusal(request, "FORBIDDEN", "portal.crossSite");
  let req = request;
  if (request.method !== "GET" && request.method !== "HEAD") {
    try {
      const body = await readBodyText(request, bodyCapOf(request));
      req = new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal });
    } catch (error) {
      // Connection: close, as the REST kit's 413 (server/rest/kit.ts): the rest of the body is never
      // read, so the connection cannot carry another request.
      if (error instanceof BodyTooLargeError) return refusal(request, "PAYLOAD_TOO_LARGE", "portal.bodyTooLarge", { connection: "close" });
      if (error instanceof BodyAbortedError) {
        // The client went away mid-upload: not a fault, and nobody reads this answer.
        log.info("request body aborted by the client", { path: new URL(request.url).pathname });
        return refusal(request, "BAD_REQUEST", "portal.bodyAborted");
      }
      throw error;
    }
  }
  return fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    req,
    router: appRouter,
    maxBatchSize: MAX_BATCH_SIZE,
    createContext: () => createContext(req, resolveUser),
    onError({ error, path, type }) {
      if (error.code === "INTERNAL_SERVER_ERROR") log.error("unhandled error in tRPC procedure", { path, type, error: error.cause ?? error });
    },
  });
}
