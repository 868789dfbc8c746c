import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { config } from "@/server/config";
import { BodyTooLargeError, readBodyText } from "@/server/rest/body";
import { withApiSecurityHeaders } from "@/server/http/security-headers";
import { log } from "@/server/log";
import { createContext, type PortalUserResolver } from "./context";
import { appRouter } from "./router";

const TRPC_ENDPOINT = "/api/trpc";
/** Portal calls are small; a body over 1 MiB is refused before tRPC reads it. */
const MAX_TRPC_BODY_BYTES = 1024 * 1024;
const MAX_BATCH_SIZE = 20;

/** A refusal before tRPC runs, in tRPC's error envelope so the client reads it like any other. */
const refusal = (code: "FORBIDDEN" | "PAYLOAD_TOO_LARGE", message: string, headers?: Record<string, string>) => {
  const [rpcCode, httpStatus] = code === "FORBIDDEN" ? [-32003, 403] : [-32013, 413];
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
  if (crossSite(request)) return refusal("FORBIDDEN", "Cross-site request refused.");
  let req = request;
  if (request.method !== "GET" && request.method !== "HEAD") {
    try {
      const body = await readBodyText(request, MAX_TRPC_BODY_BYTES);
      req = new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal });
    } catch (error) {
      // Connection: close, as the REST kit's 413 (server/rest/kit.ts): the rest of the body is never
      // read, so the connection cannot carry another request.
      if (error instanceof BodyTooLargeError) return refusal("PAYLOAD_TOO_LARGE", "Request body too large.", { connection: "close" });
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
