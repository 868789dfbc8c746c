/**
 * Which language a request gets (docs/decisions/portals.md#languages), first that applies: the
 * signed-in user's saved choice, the NEXT_LOCALE cookie (a choice made before signing in), the
 * browser's Accept-Language (best match of our languages), English.
 */
import { isUserLocale, USER_LOCALES, type UserLocale } from "@/server/domain/users/locales";

export const LOCALES = USER_LOCALES;
export type Locale = UserLocale;
export const DEFAULT_LOCALE: Locale = "en";
export const isLocale = isUserLocale;

/** The cookie a language choice is kept in (next-intl's name for it). */
export const LOCALE_COOKIE = "NEXT_LOCALE";
/** A year: a choice made on a shared counter computer outlives a session, as the browser's language would. */
export const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** The best of our languages in an Accept-Language header (by q, then order), or null. "de-AT;q=0.8" matches "de". */
export function acceptedLocale(header: string | null | undefined): Locale | null {
  let best: { locale: Locale; q: number } | null = null;
  for (const part of (header ?? "").split(",")) {
    const [range = "", ...params] = part.trim().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    const language = range.trim().toLowerCase().split("-")[0];
    if (!isLocale(language) || !(q > 0) || (best && best.q >= q)) continue;
    best = { locale: language, q };
  }
  return best?.locale ?? null;
}

export function resolveLocale(sources: { saved: string | null | undefined; cookie: string | null | undefined; acceptLanguage: string | null | undefined }): Locale {
  if (isLocale(sources.saved)) return sources.saved;
  if (isLocale(sources.cookie)) return sources.cookie;
  return acceptedLocale(sources.acceptLanguage) ?? DEFAULT_LOCALE;
}
