/**
 * The server's messages for people (refusals, field messages) by key in the "errors" namespace of
 * messages/*.json: one wording per language. A message keeps its key and values, so each door words
 * it for its reader: the REST API in English (its bodies are the spec's contract, and the English
 * entries are that wording), the portals in the caller's language (server/trpc/init.ts).
 * Server-only: it holds both catalogues (client components word with useTranslations("errors")).
 */
import { createTranslator, type MessageKeys, type NestedKeyOf } from "next-intl";
import de from "@/messages/de.json";
import en from "@/messages/en.json";
import type { Locale } from "./locales";

type ErrorMessages = (typeof en)["errors"];
/** A key of the "errors" namespace: a key missing from en.json is a type error (de.json: i18n/messages.test.ts). */
export type ErrorKey = MessageKeys<ErrorMessages, NestedKeyOf<ErrorMessages>>;
/**
 * A message's ICU values. A plain `{max}` reads as written (2048, not 2,048), as the REST bodies
 * always had it; a list of messages reads as each one worded, joined by ", ".
 */
export type ErrorValues = Record<string, string | number | readonly ErrorText[]>;
/** A message by key and values, with its English wording (what the REST API sends). */
export type ErrorText = { readonly key: ErrorKey; readonly values?: ErrorValues; readonly english: string };
/** A message as the server holds it: keyed, or a plain string (text from outside the catalogue, e.g. a REST-only refusal). */
export type Message = string | ErrorText;

const TRANSLATORS = {
  en: createTranslator({ locale: "en", messages: en, namespace: "errors" }),
  de: createTranslator({ locale: "de", messages: de, namespace: "errors" }),
} satisfies Record<Locale, unknown>;

export type ErrorTranslator = (key: ErrorKey, values?: ErrorValues) => string;

/** The wording of keys in one language. */
export const errorTranslator =
  (locale: Locale): ErrorTranslator =>
  (key, values) =>
    TRANSLATORS[locale](key, values && wordedValues(locale, values));

function wordedValues(locale: Locale, values: ErrorValues): Record<string, string | number> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, typeof value === "object" ? value.map(wordIn(locale)).join(", ") : value]));
}

/** A message by key: what a throw site names (`new ConflictError(errorText("…", { … }))`). */
export function errorText(key: ErrorKey, values?: ErrorValues): ErrorText {
  return { key, values, english: errorTranslator("en")(key, values) };
}

/** A message in one language; a plain string stays as it is. */
export const wordIn =
  (locale: Locale) =>
  (message: Message): string =>
    typeof message === "string" ? message : errorTranslator(locale)(message.key, message.values);
