"use client";

import "survey-core/survey-core.fontless.min.css";
import { useMemo } from "react";
import { Model } from "survey-core";
import { Survey } from "survey-react-ui";

// The default theme asks for Open Sans, which the fontless CSS does not bring: the portal's system fonts instead.
const PORTAL_FONTS = { cssVariables: { "--sjs2-typography-font-family-text": "var(--font-sans)" } };

/**
 * A patient's anamnesis answers, read-only, as the questionnaire's own model lays them out
 * (survey-react-ui in display mode, every page on one, no navigation). Loaded in the browser only
 * (request-detail.tsx imports it with next/dynamic).
 */
export default function AnamnesisSurvey({ model, answers }: { model: unknown; answers: unknown }) {
  const survey = useMemo(() => {
    const survey = new Model(model && typeof model === "object" ? model : {});
    survey.applyTheme(PORTAL_FONTS);
    survey.mode = "display";
    survey.questionsOnPageMode = "singlePage";
    survey.showNavigationButtons = false;
    survey.showProgressBar = false;
    survey.showCompletedPage = false;
    survey.data = answers && typeof answers === "object" && !Array.isArray(answers) ? answers : {};
    return survey;
  }, [model, answers]);
  return (
    <div className="overflow-hidden rounded-lg border border-slate-200" data-testid="anamnesis-answers">
      <Survey model={survey} />
    </div>
  );
}
