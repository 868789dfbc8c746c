import { AsyncLocalStorage } from "node:async_hooks";
import { z } from "zod";
import { errorTranslator } from "@/i18n/error-text";
import { DEFAULT_LOCALE, type Locale } from "@/i18n/locales";
import { FieldErrorCollector, type FieldErrors } from "@/server/domain/errors";
import { zodErrorMap } from "./zod-messages";

/**
 * The language zod words its issues in on the server: the caller's inside a tRPC call (zod words
 * an issue as it parses, before any door sees it, so the call runs in its language:
 * server/trpc/init.ts), English anywhere else (the REST bodies).
 */
const callLanguage = new AsyncLocalStorage<Locale>();

/** Runs a portal call with zod's messages in its caller's language. */
export const inCallLanguage = <T>(locale: Locale, call: () => T): T => callLanguage.run(locale, call);

z.config({ customError: zodErrorMap((key, values) => errorTranslator(callLanguage.getStore() ?? DEFAULT_LOCALE)(key, values)) });

/** Zod issues as `{field: [messages]}`, nested per object (array entries keyed by their index). */
export function toFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const collector = new FieldErrorCollector<string>();
  for (const issue of issues) collector.add(issue.path.map((p) => (typeof p === "symbol" ? String(p) : p)), issue.message);
  return collector.fields;
}
