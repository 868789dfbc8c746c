// Relative: next.config.ts loads this module, and its loader does not resolve the "@/" alias.
import { config, type Config } from "../config";

/**
 * The security headers of every answer, in one place (docs/security.md#security-headers-and-redirects):
 *  - pages (proxy.ts): a strict CSP whose scripts need the request's nonce;
 *  - API answers (the REST kit, tRPC, next-auth, wallet/PassKit, Inngest): nothing may load or run;
 *  - the API explorers (…/apidocs): Swagger UI's own files;
 * each with the same frame, referrer, sniffing and (on an https base URL) HSTS headers. Values are
 * built once per configuration; a page's policy adds only its nonce.
 */

type Headers = Readonly<Record<string, string>>;

const policy = (directives: Record<string, string>) =>
  Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join("; ");

/** The directives of a page's policy after default-src and script-src (which carries the nonce). */
const PAGE_DIRECTIVES = {
  // React and our components, survey-react-ui and pdf.js's text layer set style attributes and
  // inject <style> elements: no nonce can reach those. CSS cannot run script.
  "style-src": "'self' 'unsafe-inline'",
  // Survey and Tailwind icons as data: URIs; react-pdf's download link and pdf.js images as blob: URLs.
  "img-src": "'self' data: blob:",
  "font-src": "'self'",
  "connect-src": "'self'",
  // pdf.js runs its worker from the bundled file (self), or from a blob: URL when that fails.
  "worker-src": "'self' blob:",
  "object-src": "'none'",
  "base-uri": "'none'",
  "form-action": "'self'",
  "frame-ancestors": "'none'",
};

/** The page policy with `nonce`; `'unsafe-eval'` only under `next dev` (React rebuilds server error stacks with eval). */
export function pageContentSecurityPolicy(nonce: string, development = process.env.NODE_ENV === "development"): string {
  const scripts = `'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`;
  return policy({ "default-src": "'self'", "script-src": scripts, ...PAGE_DIRECTIVES });
}

/** A fresh nonce for one page answer (128 random bits, base64). */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

/** An API answer is data: nothing in it may load, run or be framed. */
export const API_CONTENT_SECURITY_POLICY = policy({ "default-src": "'none'", "frame-ancestors": "'none'" });

/**
 * The API explorer (Swagger UI, served by the REST kit with its files from swagger-ui-dist): its own
 * script and stylesheet files, the inline styles it sets, its data: icons, and fetches of the
 * OpenAPI document and of "Try it out" requests to the same origin.
 */
export const EXPLORER_CONTENT_SECURITY_POLICY = policy({
  "default-src": "'none'",
  "script-src": "'self'",
  "style-src": "'self' 'unsafe-inline'",
  "img-src": "'self' data:",
  "connect-src": "'self'",
  "base-uri": "'none'",
  "form-action": "'self'",
  "frame-ancestors": "'none'",
});

/** The headers every answer carries whatever the configuration (next.config.ts adds them to Next.js's build files). */
export const STATIC_SECURITY_HEADERS: Headers = {
  // frame-ancestors says the same to current browsers; this header to older ones.
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  // Not no-referrer: with it, browsers send `Origin: null` on same-origin POSTs, which the
  // portals' cross-site check (server/trpc/handler.ts) would refuse.
  "referrer-policy": "strict-origin-when-cross-origin",
};

/** The headers every answer carries, whatever its policy. */
function commonHeaders(c: Config): Headers {
  return {
    ...STATIC_SECURITY_HEADERS,
    // Only where the service is reached over https: HSTS on a plain-http base URL would lock
    // browsers out of it. No includeSubDomains: other hosts of the domain are not ours to decide.
    ...(new URL(c.baseUrl).protocol === "https:" ? { "strict-transport-security": "max-age=31536000" } : {}),
  };
}

type HeaderSets = { common: Headers; api: Headers; explorer: Headers };
let built: { for: Config; sets: HeaderSets } | undefined;

function headerSets(): HeaderSets {
  const c = config();
  if (built?.for !== c) {
    const common = commonHeaders(c);
    built = {
      for: c,
      sets: {
        common,
        api: { ...common, "content-security-policy": API_CONTENT_SECURITY_POLICY },
        explorer: { ...common, "content-security-policy": EXPLORER_CONTENT_SECURITY_POLICY },
      },
    };
  }
  return built.sets;
}

/** The headers of a page answer with this nonce's policy. */
export function pageSecurityHeaders(nonce: string): Record<string, string> {
  return { ...headerSets().common, "content-security-policy": pageContentSecurityPolicy(nonce) };
}

/** The headers of every API answer (built once). */
export const apiSecurityHeaders = (): Headers => headerSets().api;

/** The headers of an API explorer's page (built once). */
export const explorerSecurityHeaders = (): Headers => headerSets().explorer;

/** Sets the API headers on a response a library built (next-auth, Inngest, tRPC), or a copy when its headers are immutable. */
export function withApiSecurityHeaders(response: Response): Response {
  const headers = apiSecurityHeaders();
  try {
    for (const name in headers) response.headers.set(name, headers[name]);
    return response;
  } catch {
    // A Response.redirect() or fetched response: its headers are immutable.
    const copy = new Response(response.body, response);
    for (const name in headers) copy.headers.set(name, headers[name]);
    return copy;
  }
}

/** A route handler whose answers carry the API headers (the route files of next-auth, Inngest and the wallet). */
export function withApiHeaders<A extends unknown[]>(handler: (...args: A) => Response | Promise<Response>) {
  return async (...args: A): Promise<Response> => withApiSecurityHeaders(await handler(...args));
}

type RouteMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";
const ROUTE_METHODS: RouteMethod[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * Handlers for the methods a route file does not serve, answered as Next.js answers them itself (a
 * 405 with Allow; OPTIONS a 204 with Allow) but with the API headers, which Next.js's own answers
 * lack (issue 36: every answer carries them). HEAD is Next.js's own where GET is served (it runs GET).
 */
export function unservedMethods(served: readonly RouteMethod[]): Record<RouteMethod, () => Response> {
  const allowed = [...served, ...(served.includes("GET") && !served.includes("HEAD") ? ["HEAD"] : []), "OPTIONS"];
  const allow = ROUTE_METHODS.filter((m) => allowed.includes(m)).join(", ");
  const refuse = () =>
    new Response("Method Not Allowed\n", { status: 405, headers: { ...apiSecurityHeaders(), allow, "content-type": "text/plain; charset=utf-8" } });
  const options = () => new Response(null, { status: 204, headers: { ...apiSecurityHeaders(), allow } });
  return { GET: refuse, HEAD: refuse, POST: refuse, PUT: refuse, PATCH: refuse, DELETE: refuse, OPTIONS: options };
}
