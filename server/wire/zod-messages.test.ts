/**
 * Zod's messages in each reader's language, one rule (zod-messages.ts): the REST API's English where
 * no language is named (its bodies are the spec's contract), the caller's inside a portal call
 * (field-errors.ts), the page's in the browser (the form kit's error map, here with the server's
 * translator in place of useTranslations("errors")).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorTranslator } from "@/i18n/error-text";
import { inCallLanguage } from "./field-errors";
import { httpUrl } from "./schemas";
import { ownMessage, zodErrorMap } from "./zod-messages";

const schema = z.object({
  name: z.string().trim().min(1).max(5),
  kind: z.enum(["a", "b"]),
  count: z.number().int(),
  url: httpUrl(),
});
/** A schema's own message by key (ownMessage): worded by the same map. */
const range = z.object({ from: z.number(), to: z.number() }).refine((r) => r.from <= r.to, { path: ["to"], ...ownMessage("fields.notBeforeFrom") });

/** The messages of a failed parse, read at once: zod words a safeParse's issues when its `error` is first read. */
const messagesOf = (result: z.ZodSafeParseResult<unknown>) => Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));
const input = { name: "  ", kind: "c", url: "ftp://x" };
const backwards = { from: 2, to: 1 };

const ENGLISH = {
  name: "This field may not be blank.",
  kind: "Must be one of: a, b.",
  count: "This field is required.",
  url: "Enter a valid http(s) URL.",
};
const GERMAN = {
  name: "Dieses Feld darf nicht leer sein.",
  kind: "Muss einer dieser Werte sein: a, b.",
  count: "Dieses Feld ist erforderlich.",
  url: "Geben Sie eine gültige http(s)-URL ein.",
};

describe("zod's messages", () => {
  it("are the REST API's English where no language is named", () => {
    expect(messagesOf(schema.safeParse(input))).toEqual(ENGLISH);
    expect(messagesOf(range.safeParse(backwards))).toEqual({ to: "Must not be before from." });
    expect(messagesOf(z.object({ name: z.string().max(5) }).safeParse({ name: "toolong" }))).toEqual({ name: "Ensure this field has no more than 5 characters." });
  });

  it("are the caller's language inside a portal call", () => {
    expect(inCallLanguage("de", () => messagesOf(schema.safeParse(input)))).toEqual(GERMAN);
    expect(inCallLanguage("de", () => messagesOf(range.safeParse(backwards)))).toEqual({ to: "Darf nicht vor dem Startwert liegen." });
    expect(inCallLanguage("en", () => messagesOf(schema.safeParse(input)))).toEqual(ENGLISH);
  });

  it("follow the page's language with the browser's error map, the schema's own messages too", () => {
    const german = zodErrorMap(errorTranslator("de"));
    expect(messagesOf(schema.safeParse(input, { error: german }))).toEqual(GERMAN);
    expect(messagesOf(range.safeParse(backwards, { error: german }))).toEqual({ to: "Darf nicht vor dem Startwert liegen." });
    expect(messagesOf(schema.safeParse(input, { error: zodErrorMap(errorTranslator("en")) }))).toEqual(ENGLISH);
  });
});
