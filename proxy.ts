import { NextResponse, type NextRequest } from "next/server";
import { newNonce, pageSecurityHeaders } from "@/server/http/security-headers";
import { notFoundPage } from "@/server/rest/responses";
import { REQUESTED_PATH_HEADER } from "@/server/auth/portal-roles";
import { decodePathSegment } from "@/server/wire/json-input";

/**
 * Every page answer gets its security headers here, with a fresh nonce for its scripts: Next.js reads
 * the nonce from the request's Content-Security-Policy header and puts it on the scripts it renders
 * (pages render per request: app/layout.tsx). API answers get theirs where they are built (the REST
 * kit, tRPC, the route files under app/api and app/wallet).
 *
 * Requests Next.js would answer itself, before our route files run (docs/decisions/errors-and-validation.md#bad-input):
 *  - a method it does not route (PROPFIND, MKCOL…: an empty 400) on a REST family: answered here
 *    like the kit answers any unrouted method, the HTML 405 with Allow (or the 404 of an unknown path);
 *  - a path that is not percent-encoded UTF-8 (`%FF`, `%C0%AF`: Next.js fails to decode the dynamic
 *    segment, a 400 page in development, a text/plain 500 in production) or holds a NUL (`%00`,
 *    which PostgreSQL refuses): the HTML 404 the kit gives for such a path (no URL of ours has it;
 *    the one rule is decodePathSegment), before authentication; tRPC's not-found envelope on
 *    /api/trpc. This covers the route files outside the REST kit too (the Shopify webhooks).
 */
const ROUTED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);


/** As tRPC answers an unknown procedure (server/trpc/handler.ts builds its refusals the same way). */
const noSuchProcedure = () =>
  Response.json(
    { error: { message: "No procedure found.", code: -32004, data: { code: "NOT_FOUND", httpStatus: 404, fieldErrors: null } } },
    { status: 404 },
  );

/** Paths whose answers carry the API headers of their own handler, not a page's. */
const API_PATHS = /^\/(v[12]\/|api\/|wallet\/)/;

export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (!pathname.split("/").every((segment) => decodePathSegment(segment) !== null)) return pathname.startsWith("/api/trpc/") ? noSuchProcedure() : notFoundPage(pathname);
  if (!ROUTED_METHODS.has(request.method.toUpperCase()) && /^\/(v[12]|api\/v0)\//.test(pathname)) {
    // Loaded only for such requests: the route tables are matched, nothing else runs.
    const { restApiFor } = await import("@/server/api/rest-apis");
    const api = restApiFor(request.nextUrl.pathname);
    return api ? api.unroutedMethod(request) : NextResponse.next();
  }
  if (API_PATHS.test(pathname)) return NextResponse.next();
  return securedPage(request);
}

/**
 * A page: its policy with a new nonce, on the request (for Next.js's rendering) and on the answer;
 * the path asked for, for the portal layouts' sign-in redirect (a client's own value is replaced).
 */
function securedPage(request: NextRequest) {
  const headers = pageSecurityHeaders(newNonce());
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", headers["content-security-policy"]);
  requestHeaders.set(REQUESTED_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [
    "/v1/management/:path*",
    "/v2/public-api/:path*",
    "/v1/external_pharmacy_api/:path*",
    "/v1/external-pharmacy-api-v1/:path*",
    "/api/v0/patient/:path*",
    "/api/trpc/:path*",
    // A shop's Shopify webhooks: a shop segment that does not decode is the 404 above.
    "/api/shopify/:path*",
    // Wallet pass downloads and Apple's PassKit web service (uids and tokens in the path).
    "/wallet/:path*",
    // Every page (the portals, sign-in, the hosted checkout, invitations…): all but the API routes
    // (/api/auth and /api/inngest bodies must reach their handlers unbuffered) and Next.js's build
    // files, which next.config.ts gives the static headers.
    "/((?!api/|_next/static|_next/image|favicon.ico|icon.svg).*)",
    // next-auth's routes: only for paths that do not decode (above); their bodies are bounded by the
    // production entry before Next.js buffers them (scripts/serve/body-guard.ts).
    "/api/auth/:path*",
  ],
};
