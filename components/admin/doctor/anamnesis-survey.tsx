"use client";

import { useMemo } from "react";
import { Serializer } from "survey-core";
import { safeSurveyModel } from "@/components/survey/safe-model";

type Answer = { name: string; title: string; answer: string[] };

/**
 * A patient's anamnesis answers, read-only: each question's title and the display value of its
 * answer (choice texts, Yes/No), in the model's order with pages and panels flattened. Both are
 * the patient's and the model author's text, so they are rendered as React text only: nothing from
 * the model or the answers is interpreted as HTML here (docs/security.md#patient-and-tenant-text-is-data).
 * survey-core still lays the model out (conditions, choice texts, placeholders in titles), which
 * needs no DOM; request-detail.tsx loads this in the browser only all the same.
 */
export default function AnamnesisSurvey({ model, answers, texts }: { model: unknown; answers: unknown; texts: { noQuestions: string; notAnswered: string } }) {
  const rows = useMemo(() => anamnesisRows(model, answers), [model, answers]);
  return (
    <div className="rounded-lg border border-slate-200" data-testid="anamnesis-answers">
      {rows.length === 0 ? (
        <p className="px-4 py-3 text-sm text-slate-500">{texts.noQuestions}</p>
      ) : (
        <dl className="divide-y divide-slate-100 text-sm">
          {rows.map((row) => (
            <div key={row.name} className="grid gap-1 px-4 py-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] sm:gap-6">
              <dt className="text-slate-600">{row.title}</dt>
              <dd className="whitespace-pre-wrap break-words font-medium text-slate-900">
                {row.answer.length === 0 ? <span className="font-normal text-slate-500">{texts.notAnswered}</span> : row.answer.join("\n")}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}

/** The questions that ask for an answer (not html or image elements), shown when visible or answered. */
function anamnesisRows(model: unknown, answers: unknown): Answer[] {
  const survey = safeSurveyModel(model);
  survey.data = answers && typeof answers === "object" && !Array.isArray(answers) ? answers : {};
  return survey
    .getAllQuestions(false, false, false)
    .filter((q) => !Serializer.isDescendantOf(q.getType(), "nonvalue") && (q.isVisible || !q.isEmpty()))
    .map((q) => ({ name: q.name, title: q.processedTitle || q.name, answer: q.isEmpty() ? [] : answerLines(q.getDisplayValue(true)) }));
}

/** A display value as lines of text: matrices and multiple texts give "row: value", dynamic panels one line per entry. */
function answerLines(value: unknown): string[] {
  if (value === undefined || value === null || value === "") return [];
  if (Array.isArray(value)) return value.flatMap((v) => answerLines(v).join("; ") || []);
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, v]) => {
      const text = answerLines(v).join("; ");
      return text ? [`${key}: ${text}`] : [];
    });
  }
  return [String(value)];
}
