"use client";

import "survey-core/survey-core.fontless.min.css";
import { useMemo, type CSSProperties } from "react";
import { Model } from "survey-core";
import { Survey } from "survey-react-ui";

// The fontless theme names its fonts by these variables, which it leaves to the page: the portal's system fonts.
const SYSTEM_FONTS = Object.fromEntries(
  ["text", "component-label-content", "component-input-content", "component-page-title", "component-survey-header-title"].map((part) => [
    `--sjs2-typography-font-family-${part}`,
    "var(--font-sans)",
  ]),
) as CSSProperties;

/**
 * A patient's anamnesis answers, read-only, as the questionnaire's own model lays them out
 * (survey-react-ui in display mode, every page on one, no navigation). Loaded in the browser only
 * (request-detail.tsx imports it with next/dynamic).
 */
export default function AnamnesisSurvey({ model, answers }: { model: unknown; answers: unknown }) {
  const survey = useMemo(() => {
    const survey = new Model(model && typeof model === "object" ? model : {});
    survey.mode = "display";
    survey.questionsOnPageMode = "singlePage";
    survey.showNavigationButtons = false;
    survey.showProgressBar = false;
    survey.showCompletedPage = false;
    survey.data = answers && typeof answers === "object" && !Array.isArray(answers) ? answers : {};
    return survey;
  }, [model, answers]);
  return (
    <div className="overflow-hidden rounded-lg border border-slate-200" style={SYSTEM_FONTS} data-testid="anamnesis-answers">
      <Survey model={survey} />
    </div>
  );
}
