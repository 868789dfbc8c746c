"use client";

// Without the web font (the default CSS loads Open Sans from Google, which the page policy refuses): survey-preview.css sets the font.
import "survey-core/survey-core.fontless.min.css";
import "./survey-preview.css";
import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { Survey } from "survey-react-ui";
import { safeSurveyModel } from "@/components/survey/safe-model";

/**
 * A questionnaire model rendered as patients will see it (survey-react-ui over survey-core, the
 * library that also checks models on publishing), its HTML sanitised (safe-model.ts). Answers typed
 * here go nowhere. Loaded in the browser only (questionnaire-editor.tsx): survey-react-ui renders
 * into the page's DOM.
 */
export default function SurveyPreview({ model, theme }: { model: Record<string, unknown>; theme: Record<string, unknown> | null }) {
  const t = useTranslations("admin.questionnaires.editor");
  const survey = useMemo(() => {
    try {
      const s = safeSurveyModel(model);
      if (theme) s.applyTheme(theme);
      // A preview: completing it must not look like a submission.
      s.showCompleteButton = false;
      return { survey: s, problems: (s.jsonErrors ?? []).filter((e) => e.type !== "unknownproperty").map((e) => e.message) };
    } catch (error) {
      return { survey: null, problems: [(error as Error).message] };
    }
  }, [model, theme]);
  return (
    <div>
      {survey.problems.length > 0 ? (
        <div role="status" className="mb-3 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <p className="font-medium">{t("previewProblems")}</p>
          <ul className="mt-1 list-disc pl-5">
            {survey.problems.map((p, i) => (
              <li key={i}>{p}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {survey.survey ? (
        <div className="survey-preview">
          <Survey model={survey.survey} />
        </div>
      ) : null}
    </div>
  );
}
