import { Model } from "survey-core";

/**
 * The problems of a patient's answers to a questionnaire, by question name (empty when the answers
 * are complete), as the form itself would report them: survey-core loads the model, takes the
 * answers and runs each visible question's own checks (required, validators, choices' conditions),
 * so a question hidden by a condition need not be answered. A name that is no question of the
 * model is refused: answers are stored by name and a doctor reads them against the model.
 */
export function surveyAnswerProblems(model: unknown, answers: Record<string, unknown>): Record<string, string[]> {
  const survey = new Model(model as object);
  const names = new Set(survey.getAllQuestions(false, false, true).map((q) => q.getValueName()));
  const problems: Record<string, string[]> = {};
  for (const name of Object.keys(answers)) {
    if (!names.has(name)) problems[name] = ["No question with this name in the questionnaire."];
  }
  survey.data = answers;
  for (const question of survey.getAllQuestions(true)) {
    if (!question.validate(true)) {
      problems[question.getValueName()] = question.errors.map((e) => e.getText());
    }
  }
  return problems;
}
