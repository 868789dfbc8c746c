"use server";

import { cookies } from "next/headers";
import { config } from "@/server/config";
import { saveUserLocale } from "@/server/domain/users/saved-locale";
import { isLocale, LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_SECONDS } from "./locales";
import { sessionOfCurrentRequest } from "./signed-in";

/**
 * The language switch's action: the choice goes into the cookie (this browser, also before signing
 * in) and, for a signed-in user, into their account (every browser, after the next sign-in). A server
 * action, so Next.js checks the request's origin; an unknown language changes nothing.
 */
export async function saveLocale(locale: unknown): Promise<void> {
  if (!isLocale(locale)) return;
  (await cookies()).set(LOCALE_COOKIE, locale, {
    path: "/",
    sameSite: "lax",
    secure: config().baseUrl.startsWith("https:"),
    maxAge: LOCALE_COOKIE_MAX_AGE_SECONDS,
  });
  const session = await sessionOfCurrentRequest();
  if (session) await saveUserLocale(session.id, session.sessionVersion, locale);
}
