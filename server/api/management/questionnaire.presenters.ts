import { z } from "zod";
import type { PublishedQuestionnaire } from "@/server/domain/questionnaires/publish-model";

export const questionnaireSchema = z.object({
  uid: z.string(),
  model: z.record(z.string(), z.unknown()).describe("The SurveyJS model"),
  theme: z.record(z.string(), z.unknown()).describe("The SurveyJS theme ({}: the default theme)"),
});

/** A questionnaire without a theme shows {} (SurveyJS's default theme), so theme is always an object. */
export function presentQuestionnaire(q: PublishedQuestionnaire): z.infer<typeof questionnaireSchema> {
  // Publishing accepts only JSON objects for both (questionnaires.routes.ts).
  return { uid: q.id, model: q.model as Record<string, unknown>, theme: (q.theme ?? {}) as Record<string, unknown> };
}
