import type { PublishedQuestionnaire } from "@/server/domain/questionnaires/publish-model";

/** A questionnaire without a theme shows {} (SurveyJS's default theme), so theme is always an object. */
export function presentQuestionnaire(q: PublishedQuestionnaire) {
  return { uid: q.id, model: q.model, theme: q.theme ?? {} };
}
