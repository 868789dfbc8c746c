"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from "react";
import { Button } from "@/components/ui/controls";
import { ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { useFormat } from "@/components/ui/format";
import { useErrorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";

const SurveyPreview = dynamic(() => import("./survey-preview"), { ssr: false, loading: () => <PreviewLoading /> });

function PreviewLoading() {
  return <LoadingState label={useTranslations("admin.questionnaires.editor")("loadingPreview")} />;
}

// The editor waits this long after the last keystroke before it saves the draft.
const AUTOSAVE_DELAY_MS = 1200;

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** The editor's text as a JSON object, or why it is not one (the server says the same on publishing). */
function parseObject(text: string): { value: Record<string, unknown> } | { error: { key: "notObject" } | { key: "notJson"; detail: string } } {
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== "object" || Array.isArray(value)) return { error: { key: "notObject" } };
    return { value: value as Record<string, unknown> };
  } catch (error) {
    return { error: { key: "notJson", detail: (error as Error).message } };
  }
}

/**
 * A questionnaire's model as JSON with a live preview. Edits are autosaved as the questionnaire's
 * draft; publishing sends the model through the same check and the same function as the
 * Management API's PATCH …/model, and shows its refusals under the model.
 */
export function QuestionnaireEditor({ questionnaireUid }: { questionnaireUid: string }) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("admin.questionnaires.editor");
  const trpc = useTRPC();
  const questionnaire = useQuery(trpc.admin.questionnaires.get.queryOptions({ questionnaireUid }, { refetchOnWindowFocus: false }));
  if (questionnaire.isPending) return <LoadingState label={t("loading")} />;
  if (questionnaire.isError) return <ErrorState message={errorMessage(questionnaire.error)} onRetry={() => questionnaire.refetch()} />;
  return <Editor key={questionnaire.data.uid} questionnaire={questionnaire.data} />;
}

type Loaded = {
  uid: string;
  displayName: string;
  model: Record<string, unknown>;
  theme: Record<string, unknown> | null;
  draftModel: Record<string, unknown> | null;
  draftSavedAt: number | null;
  publishedAt: number | null;
};

function Editor({ questionnaire }: { questionnaire: Loaded }) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("admin.questionnaires.editor");
  const format = useFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const initial = pretty(questionnaire.draftModel ?? questionnaire.model);
  const [text, setText] = useState(initial);
  const [themeText, setThemeText] = useState(questionnaire.theme ? pretty(questionnaire.theme) : "");
  const [savedText, setSavedText] = useState(initial);
  const [draftSavedAt, setDraftSavedAt] = useState(questionnaire.draftSavedAt);
  const [published, setPublished] = useState(false);
  const [editingDraft, setEditingDraft] = useState(questionnaire.draftModel !== null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const parsed = useMemo(() => parseObject(text), [text]);
  const parsedTheme = useMemo(() => (themeText.trim() ? parseObject(themeText) : null), [themeText]);
  // The preview keeps showing the last model that parsed while the text is mid-edit.
  const [previewModel, setPreviewModel] = useState(() => ("value" in parsed ? parsed.value : questionnaire.model));
  useEffect(() => {
    if ("value" in parsed) setPreviewModel(parsed.value);
  }, [parsed]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.questionnaires.list.pathKey() });
  const saveDraft = useMutation(
    trpc.admin.questionnaires.saveDraft.mutationOptions({
      onSuccess: ({ draftSavedAt }, variables) => {
        setDraftSavedAt(draftSavedAt);
        setSavedText(variables.model ?? pretty(questionnaire.model));
        void refresh();
      },
    }),
  );
  const publish = useMutation(
    trpc.admin.questionnaires.publish.mutationOptions({
      onSuccess: async (_, variables) => {
        setPublished(true);
        setEditingDraft(false);
        setDraftSavedAt(null);
        setSavedText(variables.model);
        await queryClient.invalidateQueries({ queryKey: trpc.admin.questionnaires.get.queryKey({ questionnaireUid: questionnaire.uid }) });
        await refresh();
      },
    }),
  );

  // Autosave: the text as a draft, once typing pauses, when it is a JSON object and differs from what is saved.
  useEffect(() => {
    if (text === savedText || !("value" in parsed)) return;
    timer.current = setTimeout(() => saveDraft.mutate({ questionnaireUid: questionnaire.uid, model: text }), AUTOSAVE_DELAY_MS);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- saveDraft is a new object each render; the text decides.
  }, [text, savedText, parsed, questionnaire.uid]);

  function edit(event: ChangeEvent<HTMLTextAreaElement>) {
    setText(event.target.value);
    setPublished(false);
    publish.reset();
  }

  function publishNow() {
    if (timer.current) clearTimeout(timer.current);
    setPublished(false);
    publish.mutate({ questionnaireUid: questionnaire.uid, model: text, ...(themeText.trim() ? { theme: themeText } : {}) });
  }

  function discardDraft() {
    if (timer.current) clearTimeout(timer.current);
    setText(pretty(questionnaire.model));
    setEditingDraft(false);
    saveDraft.mutate({ questionnaireUid: questionnaire.uid, model: null });
  }

  const jsonError = (error: { key: "notObject" } | { key: "notJson"; detail: string }) =>
    error.key === "notJson" ? t("notJson", { detail: error.detail }) : t("notObject");
  const modelErrors = fieldErrors(publish.error, "model") ?? ("error" in parsed ? [jsonError(parsed.error)] : undefined);
  const themeErrors = fieldErrors(publish.error, "theme") ?? (parsedTheme && "error" in parsedTheme ? [jsonError(parsedTheme.error)] : undefined);
  const draftStatus = saveDraft.isPending
    ? t("savingDraft")
    : saveDraft.isError
      ? t("draftNotSaved", { error: errorMessage(saveDraft.error) })
      : text !== savedText && "error" in parsed
        ? t("draftNotSavedInvalid")
        : draftSavedAt
          ? t("draftSaved", { when: format.dateTime(draftSavedAt) })
          : t("noChanges");

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">{questionnaire.displayName}</h2>
          <p className="text-sm text-slate-600">
            {questionnaire.publishedAt ? t("lastPublished", { when: format.dateTime(questionnaire.publishedAt) }) : t("neverPublished")}{" "}
            <span className="font-mono text-xs text-slate-500 wrap-anywhere">{questionnaire.uid}</span>
          </p>
        </div>
        <Link prefetch={false} href="/admin/questionnaires" className="text-sm font-medium text-brand-700 hover:underline">
          {t("all")}
        </Link>
      </div>
      {editingDraft ? (
        <Notice tone="warning">
          {t("editingDraft", { when: format.dateTime(questionnaire.draftSavedAt) })}{" "}
          <button type="button" onClick={discardDraft} className="font-medium underline">
            {t("discardDraft")}
          </button>
        </Notice>
      ) : null}
      <div className="grid gap-6 xl:grid-cols-2">
        <div className="space-y-4">
          <JsonArea label={t("model")} value={text} onChange={edit} errors={modelErrors} rows={28} hint={t("modelHint")} />
          <JsonArea
            label={t("theme")}
            value={themeText}
            onChange={(e) => {
              setThemeText(e.target.value);
              publish.reset();
            }}
            errors={themeErrors}
            rows={5}
            hint={t("themeHint")}
          />
          <p role="status" className="text-xs text-slate-500">
            {draftStatus}
          </p>
          {publish.error && !publish.error.data?.fieldErrors ? <ErrorState message={errorMessage(publish.error)} /> : null}
          {published ? <Notice>{t("published")}</Notice> : null}
          <Button onClick={publishNow} disabled={publish.isPending}>
            {publish.isPending ? t("publishing") : t("publish")}
          </Button>
        </div>
        <section aria-labelledby="preview-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <h3 id="preview-heading" className="text-sm font-medium text-slate-700">
            {t("preview")}
          </h3>
          <div className="mt-2" data-testid="survey-preview">
            <SurveyPreview model={previewModel} theme={parsedTheme && "value" in parsedTheme ? parsedTheme.value : questionnaire.theme} />
          </div>
        </section>
      </div>
    </div>
  );
}

function JsonArea({
  label,
  value,
  onChange,
  errors,
  rows,
  hint,
}: {
  label: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLTextAreaElement>) => void;
  errors?: string[];
  rows: number;
  hint: string;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={id}
        value={value}
        onChange={onChange}
        rows={rows}
        spellCheck={false}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={`${id}-hint${errors?.length ? ` ${id}-errors` : ""}`}
        className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-xs text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100"
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
        {hint}
      </p>
      {errors?.length ? (
        <ul id={`${id}-errors`} className="mt-1 list-disc pl-5 text-xs text-red-700">
          {errors.map((e, i) => (
            <li key={i}>{e}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
