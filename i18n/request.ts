import { getRequestConfig } from "next-intl/server";
import { cookies, headers } from "next/headers";
import { LOCALE_COOKIE, type Locale } from "./locales";
import { localeOfRequest } from "./request-locale";
import { sessionOfCurrentRequest } from "./signed-in";

const MESSAGES = {
  en: () => import("../messages/en.json"),
  de: () => import("../messages/de.json"),
} satisfies Record<Locale, () => Promise<unknown>>;

/** next-intl's per-request configuration (no locale in the URL): the language by i18n/locales.ts, its messages. */
export default getRequestConfig(async () => {
  const locale = await localeOfRequest(await sessionOfCurrentRequest(), {
    cookie: (await cookies()).get(LOCALE_COOKIE)?.value,
    acceptLanguage: (await headers()).get("accept-language"),
  });
  return { locale, messages: (await MESSAGES[locale]()).default };
});
