import DOMPurify from "dompurify";
import { Model, QuestionHtmlModel } from "survey-core";

/**
 * The one way the portals turn a questionnaire model into a survey-core Model. A model is written
 * by an admin or by any Management key with questionnaire:write, and answers by patients: both are
 * data, never code (docs/security.md#patient-and-tenant-text-is-data). Models are stored as given
 * (never rewritten at publish time); they are made safe here, at render time:
 *
 * - every HTML string survey-core renders goes through `processHtml` (the `html` element's `html`,
 *   completedHtml, completedBeforeHtml, loadingHtml), and the wrapper below passes its result
 *   through DOMPurify. survey-core fills the `{placeholders}` before and inside that call, and
 *   raises `onProcessHtml` before the last filling, so that event would sanitise text an answer
 *   can still change (`<a href="{q1}">`): hence the wrapper around `processHtml` itself.
 * - an answer substituted into HTML is HTML-escaped first (`onProcessDynamicText`), so a patient's
 *   `<img onerror>` shows as the text it is. An `html` element fills its placeholders itself (as
 *   the element, before `processHtml`); `processHtml` fills any left. Placeholders elsewhere
 *   (titles, descriptions) are left alone: React renders those as text.
 * - no `onTextMarkdown` handler is installed, so titles, descriptions and choice texts never
 *   become HTML.
 *
 * Browser only: DOMPurify needs a DOM (without one, the model renders no HTML).
 */
export function safeSurveyModel(json: unknown): Model {
  const survey = new Model(json && typeof json === "object" ? json : {});
  let insideProcessHtml = 0;
  survey.onProcessDynamicText.add((_, options) => {
    const intoHtml = insideProcessHtml > 0 || options.element instanceof QuestionHtmlModel;
    if (intoHtml && options.value !== undefined && options.value !== null && options.value !== "") {
      options.value = escapeHtml(String(options.value));
    }
  });
  const processHtml = survey.processHtml.bind(survey);
  survey.processHtml = (html: string, reason?: string) => {
    insideProcessHtml++;
    try {
      const processed = processHtml(html, reason);
      // Without a DOM DOMPurify hands its input back unchanged: no HTML at all then.
      return DOMPurify.isSupported ? DOMPurify.sanitize(processed) : "";
    } finally {
      insideProcessHtml--;
    }
  };
  return survey;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}
