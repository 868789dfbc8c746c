import { NextResponse, type NextRequest } from "next/server";
import { notFoundPage } from "@/server/rest/responses";

/**
 * Two requests to the REST families that Next.js would answer itself, before their route files run
 * (docs/spec-gaps.md#bad-input):
 *  - a method it does not route (PROPFIND, MKCOL…: an empty 400): answered here like the kit answers
 *    any unrouted method, the HTML 405 with Allow (or the 404 of an unknown path);
 *  - a path that is not percent-encoded UTF-8 (`%FF`, `%C0%AF`: Next.js fails to decode the
 *    catch-all parameter, a 400 page in development, a text/plain 500 in production): the HTML 404
 *    the kit gives for such a path (no URL of ours has it), before authentication.
 */
const ROUTED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

const decodes = (segment: string) => {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
};

export async function proxy(request: NextRequest) {
  if (!ROUTED_METHODS.has(request.method.toUpperCase())) {
    // Loaded only for such requests: the route tables are matched, nothing else runs.
    const { restApiFor } = await import("@/server/api/rest-apis");
    const api = restApiFor(request.nextUrl.pathname);
    return api ? api.unroutedMethod(request) : NextResponse.next();
  }
  const { pathname } = request.nextUrl;
  return pathname.split("/").every(decodes) ? NextResponse.next() : notFoundPage(pathname);
}

export const config = {
  matcher: ["/v1/management/:path*", "/v2/public-api/:path*", "/v1/external_pharmacy_api/:path*", "/v1/external-pharmacy-api-v1/:path*"],
};
