import { RequestCookies } from "next/dist/server/web/spec-extension/cookies";
import { LOCALE_COOKIE } from "@/i18n/locales";
import { localeOfRequest } from "@/i18n/request-locale";
import { portalUserOfRequest, type PortalSessionUser } from "@/server/auth/portal-session";
import { config } from "@/server/config";
import { clientAddress, withinRateLimit } from "@/server/rest/rate-limit";
import { portalRefusal, type TrpcContext } from "./init";

export type PortalUserResolver = (request: Request) => Promise<PortalSessionUser | null>;

/**
 * The context of one tRPC request (one HTTP request, however many calls it batches): the signed-in
 * portal user (next-auth session cookie), or null, and the language its refusals and field messages
 * read in (the pages' rule: i18n/request-locale.ts). Procedures re-check the user against the
 * database. The request is counted first, per user and per client address, by the REST rate
 * limit's counters (TRPC_RATE_LIMIT_PER_SECOND); over either limit, every call of the request
 * fails with TOO_MANY_REQUESTS (HTTP 429) in tRPC's envelope.
 */
export async function createContext(request: Request, resolveUser: PortalUserResolver = portalUserOfRequest): Promise<TrpcContext> {
  const user = await resolveUser(request);
  const subjects = [`trpc-addr:${clientAddress(request)}`, ...(user ? [`trpc-user:${user.id}`] : [])];
  const within = await withinRateLimit(subjects, config().TRPC_RATE_LIMIT_PER_SECOND);
  // A request over the limit costs no database statement: its refusal reads in the cookie's or the browser's language.
  const locale = await localeOfRequest(within ? user : null, requestLanguages(request));
  if (!within) throw portalRefusal("TOO_MANY_REQUESTS", "portal.tooManyRequests", locale);
  return { user, locale };
}

/** The languages a request names itself: the language switch's cookie, the browser's Accept-Language. */
export const requestLanguages = (request: Request) => ({
  cookie: new RequestCookies(request.headers).get(LOCALE_COOKIE)?.value,
  acceptLanguage: request.headers.get("accept-language"),
});
