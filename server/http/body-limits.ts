/**
 * How much request body each door takes (docs/security.md#input-limits-and-malformed-input): one
 * table, read by the doors' own bounded readers (server/rest/body.ts) and by the production entry,
 * which refuses a declared Content-Length over the path's cap before anything reads the body
 * (scripts/serve/body-guard.ts).
 */
const KiB = 1024;
const MiB = 1024 * KiB;

/** The spec's cap on REST request bodies. */
export const REST_BODY_MAX_BYTES = 32 * MiB;
/** Portal calls are small. */
export const TRPC_BODY_MAX_BYTES = 1 * MiB;
/**
 * The admin tool's calls that carry a questionnaire model as the editor's text: room for the
 * text bound of their input (admin-questionnaires.schemas.ts), each character at most two bytes
 * once escaped into the JSON body, so the domain's model bound decides, as on the Management API.
 */
export const TRPC_MODEL_TEXT_MAX_CHARS = 4 * MiB;
export const TRPC_MODEL_BODY_MAX_BYTES = 2 * TRPC_MODEL_TEXT_MAX_CHARS + 64 * KiB;
/**
 * The portals' assortment imports, which carry a CSV file as text (pharmacy-skus.schemas.ts): 4 Mi
 * characters (20,000 rows of 200), each at most three bytes in the JSON body (UTF-8 of the Basic
 * Multilingual Plane), plus the rest of the input.
 */
export const TRPC_CSV_TEXT_MAX_CHARS = 4 * MiB;
export const TRPC_CSV_BODY_MAX_BYTES = 3 * TRPC_CSV_TEXT_MAX_CHARS + 64 * KiB;
/** next-auth's forms: an e-mail address, a password, a CSRF token and a callback URL. */
export const AUTH_BODY_MAX_BYTES = 64 * KiB;
/** Apple's PassKit web service: a push token, or at most 100 log lines of a device. */
export const PASSKIT_BODY_MAX_BYTES = 256 * KiB;
/** Inngest runs a function with its event and earlier steps' output (Inngest bounds run state at 32 MB). */
export const INNGEST_BODY_MAX_BYTES = 32 * MiB;
/** Everything else Next.js serves a body to: pages and server actions (Next.js's own default for actions). */
export const PAGE_BODY_MAX_BYTES = 1 * MiB;

/**
 * The REST families and tRPC check Content-Length up front and count a chunked body while reading
 * it, and answer 413 in their own error shapes: the entry leaves their bodies to them.
 */
export function readsOwnBody(pathname: string): boolean {
  return /^\/(v1|v2|api\/v0|api\/trpc)(\/|$)/.test(pathname);
}

/** The largest body the door at this path takes (any path but those of readsOwnBody). */
export function bodyLimitFor(pathname: string): number {
  if (/^\/api\/auth(\/|$)/.test(pathname)) return AUTH_BODY_MAX_BYTES;
  if (/^\/wallet(\/|$)/.test(pathname)) return PASSKIT_BODY_MAX_BYTES;
  if (/^\/api\/inngest(\/|$)/.test(pathname)) return INNGEST_BODY_MAX_BYTES;
  return PAGE_BODY_MAX_BYTES;
}
