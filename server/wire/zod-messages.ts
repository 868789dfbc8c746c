import type { z } from "zod";
import type { ErrorKey } from "@/i18n/error-text";

/** Words a key of the "errors" namespace: the server's translator, or the browser's useTranslations("errors"). */
export type FieldWording = (key: ErrorKey, values?: Record<string, string>) => string;

/**
 * How zod's issues read: messages an integrator can act on in place of zod's generic ones, keyed in
 * the "errors" namespace of messages/*.json (errors.fields.*). One rule for both sides, each with its
 * own wording: the server's error map (server/wire/field-errors.ts: English for REST, the caller's
 * language in a tRPC call), the browser's (components/ui/form.tsx: the page's language). Imports no
 * catalogue: the browser loads it with the schemas.
 */
export function zodErrorMap(word: FieldWording): z.core.$ZodErrorMap {
  return (issue) => {
    const own = issue.code === "custom" ? (issue.params as OwnMessage["params"] | undefined) : undefined;
    if (own?.messageKey) return word(own.messageKey, own.messageValues);
    if (issue.code === "invalid_type") {
      if (issue.input === undefined) return word("fields.required");
      if (issue.input === null) return word("fields.notNull");
      if (issue.expected === "int") return word("fields.integer");
      if (issue.expected === "number") return word("fields.number");
      if (issue.expected === "boolean") return word("fields.boolean");
      if (issue.expected === "string") return word("fields.string");
      if (issue.expected === "object") return word("fields.object");
      if (issue.expected === "array") return word("fields.list");
    }
    if (issue.code === "invalid_value") return word("fields.oneOf", { values: issue.values.map(String).join(", ") });
    if (issue.code === "too_small" && issue.origin === "string") return word("fields.notBlank");
    if (issue.code === "too_small" && issue.origin === "array") return word("fields.atLeastItems", { minimum: String(issue.minimum) });
    if (issue.code === "too_small") return word("fields.atLeast", { minimum: String(issue.minimum) });
    if (issue.code === "too_big" && issue.origin === "string") return word("fields.maxLength", { maximum: String(issue.maximum) });
    if (issue.code === "too_big") return word("fields.atMost", { maximum: String(issue.maximum) });
    return undefined;
  };
}

type OwnMessage = { params: { messageKey: ErrorKey; messageValues?: Record<string, string> } };

/**
 * A schema's own message, by key, for `.refine(check, ownMessage(…))` and `ctx.addIssue({ code:
 * "custom", …ownMessage(…) })`: the error map words it like zod's own, in the reader's language (a
 * plain string message would stay English).
 */
export const ownMessage = (messageKey: ErrorKey, messageValues?: Record<string, string>): OwnMessage => ({ params: { messageKey, messageValues } });
