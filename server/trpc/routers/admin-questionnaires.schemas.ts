/** Inputs of the admin tool's questionnaire procedures, shared with the editor (zod, server/wire and the body limits only). */
import { z } from "zod";
import { TRPC_MODEL_TEXT_MAX_CHARS } from "@/server/http/body-limits";
import { inputTextErrors, MAX_JSON_DEPTH } from "@/server/wire/json-input";
import { FREE_FORM_MAX_BYTES, text, uid } from "@/server/wire/schemas";
import { ownMessage } from "@/server/wire/zod-messages";

/**
 * Room for the domain's 1 MiB model bound plus indentation; the domain's own bound decides, and the
 * tRPC handler takes bodies of these procedures large enough for this much text (body-limits.ts).
 */
const MAX_JSON_TEXT = TRPC_MODEL_TEXT_MAX_CHARS;

/**
 * JSON text, as typed in the editor's textarea, parsed to an object: text that is not JSON, or JSON
 * that is not an object, is a field error here; whether the object is a usable model is the
 * domain's (survey-model.ts), as for the Management API's PATCH …/model.
 */
const jsonObjectText = (maxBytes: number) =>
  z
    .string()
    .refine((value) => value.length <= maxBytes, ownMessage("fields.jsonTooLarge", { kib: String(maxBytes / 1024) }))
    .transform((value, ctx) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", ...ownMessage("questionnaires.notJson", { reason: (error as Error).message }) });
        return z.NEVER;
      }
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
        ctx.addIssue({ code: "custom", ...ownMessage("questionnaires.notObject") });
        return z.NEVER;
      }
      // The checks the raw input of every procedure gets (server/trpc/init.ts), for the text's contents.
      const problems = inputTextErrors(parsed);
      if (problems) {
        ctx.addIssue({ code: "custom", ...ownMessage("questionnaires.unstorableText", { levels: String(MAX_JSON_DEPTH) }) });
        return z.NEVER;
      }
      return parsed as Record<string, unknown>;
    });

export const modelJson = () => jsonObjectText(MAX_JSON_TEXT);

export const createQuestionnaireInput = z.object({ displayName: text(200) });

export const questionnaireUidInput = z.object({ questionnaireUid: uid() });

/** Publishing: the model (required) and the theme (optional: when empty, the live theme is kept). */
export const publishQuestionnaireInput = z.object({
  questionnaireUid: uid(),
  model: modelJson(),
  theme: jsonObjectText(FREE_FORM_MAX_BYTES).optional(),
});
export type PublishQuestionnaireInput = z.input<typeof publishQuestionnaireInput>;

/** The autosave: the editor's text when it is a JSON object; null discards the draft. */
export const saveDraftInput = z.object({ questionnaireUid: uid(), model: modelJson().nullable() });
