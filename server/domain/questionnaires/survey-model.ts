import { Model } from "survey-core";

/** A questionnaire model, as stored: at most this much JSON (a large anamnesis is ~100 KiB). */
export const SURVEY_MODEL_MAX_BYTES = 1024 * 1024;

/**
 * The problems that keep a JSON object from being a usable SurveyJS form model, as messages for
 * people (empty when it is usable). survey-core loads the model exactly as the form renderer
 * (survey-react-ui) and the editor will, and reports what it could not load: an unknown element
 * type, a property of the wrong type, a missing required property such as a question's name.
 * Unknown properties are allowed (SurveyJS Creator adds custom ones). We add what an anamnesis
 * needs: at least one question, and question names unique, since answers are stored by name.
 */
export function surveyModelProblems(model: Record<string, unknown>): string[] {
  if (Buffer.byteLength(JSON.stringify(model)) > SURVEY_MODEL_MAX_BYTES) {
    return [`Too large: at most ${SURVEY_MODEL_MAX_BYTES / 1024} KiB of JSON.`];
  }
  let survey: Model;
  try {
    survey = new Model(model);
  } catch (error) {
    return [`Not a survey model: ${(error as Error).message}`];
  }
  const problems = (survey.jsonErrors ?? [])
    .filter((e) => e.type !== "unknownproperty")
    .map((e) => e.message);
  const names = survey.getAllQuestions(false, false, true).map((q) => q.name);
  if (names.length === 0) problems.push("The model has no questions.");
  const duplicates = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  if (duplicates.length > 0) problems.push(`Question names must be unique: ${duplicates.join(", ")}.`);
  return problems;
}
