import type en from "../messages/en.json";
import type { Locale } from "./locales";

// Typed keys: a key used in code but missing from messages/en.json is a type error (de.json is
// held to the same keys by i18n/messages.test.ts).
declare module "next-intl" {
  interface AppConfig {
    Locale: Locale;
    Messages: typeof en;
  }
}
