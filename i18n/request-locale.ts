import type { PortalSessionUser } from "@/server/auth/portal-session";
import { savedUserLocale } from "@/server/domain/users/saved-locale";
import { resolveLocale, type Locale } from "./locales";

/**
 * The language of a request by locales.ts's rule, with its signed-in user's saved choice (one driver
 * statement) looked up: pages (request.ts) and the portals' tRPC calls (server/trpc/context.ts) alike.
 */
export async function localeOfRequest(
  user: PortalSessionUser | null,
  request: { cookie: string | null | undefined; acceptLanguage: string | null | undefined },
): Promise<Locale> {
  return resolveLocale({ saved: user ? await savedUserLocale(user.id, user.sessionVersion) : null, ...request });
}
