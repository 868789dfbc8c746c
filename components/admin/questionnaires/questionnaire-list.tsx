"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Field, FormError, SubmitButton, useZodForm, submitWith } from "@/components/ui/form";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { useFormat } from "@/components/ui/format";
import { useTRPC } from "@/components/trpc/react";
import { createQuestionnaireInput } from "@/server/trpc/routers/admin-questionnaires.schemas";

type Questionnaire = { uid: string; displayName: string; publishedAt: number | null; draftSavedAt: number | null; responses: number; updatedAt: number };

/** The organisation's questionnaires (anamnesis forms), and creating one, which opens it in the editor. */
export function QuestionnaireList() {
  return (
    <div className="space-y-10">
      <CreateForm />
      <List />
    </div>
  );
}

function CreateForm() {
  const t = useTranslations("admin.questionnaires");
  const trpc = useTRPC();
  const router = useRouter();
  const form = useZodForm(createQuestionnaireInput, { displayName: "" });
  const create = useMutation(trpc.admin.questionnaires.create.mutationOptions());
  const submit = submitWith(form, create.mutateAsync, ({ uid }) => router.push(`/admin/questionnaires/${uid}`));
  return (
    <section aria-labelledby="create-questionnaire-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id="create-questionnaire-heading" className="text-lg font-semibold text-slate-900">
        {t("createHeading")}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{t("createIntro")}</p>
      <form onSubmit={submit} noValidate className="mt-5 space-y-3">
        <div className="flex flex-wrap items-end gap-4">
          <div className="min-w-0 flex-1 sm:min-w-72">
            <Field form={form} name="displayName" label={t("name")} maxLength={200} />
          </div>
          <SubmitButton form={form}>{t("create")}</SubmitButton>
        </div>
        <FormError form={form} />
      </form>
    </section>
  );
}

function List() {
  const t = useTranslations("admin.questionnaires");
  const format = useFormat();
  const trpc = useTRPC();
  const list = useQuery(trpc.admin.questionnaires.list.queryOptions());
  const columns: Column<Questionnaire>[] = [
    {
      header: t("columns.name"),
      key: true,
      cell: (q) => (
        <>
          <Link prefetch={false} href={`/admin/questionnaires/${q.uid}`} className="font-medium text-brand-700 hover:underline">
            {q.displayName}
          </Link>
          <p className="font-mono text-xs font-normal text-slate-500">{q.uid}</p>
        </>
      ),
    },
    { header: t("columns.published"), className: "md:whitespace-nowrap", cell: (q) => format.dateTime(q.publishedAt, t("notYet")) },
    {
      header: t("columns.draft"),
      className: "md:whitespace-nowrap",
      cell: (q) => (q.draftSavedAt ? t("draftSaved", { when: format.dateTime(q.draftSavedAt) }) : t("none")),
    },
    { header: t("columns.responses"), cell: (q) => format.number(q.responses) },
    { header: t("columns.updated"), className: "md:whitespace-nowrap", cell: (q) => format.dateTime(q.updatedAt) },
  ];
  return (
    <section aria-labelledby="questionnaires-heading">
      <h2 id="questionnaires-heading" className="text-lg font-semibold text-slate-900">
        {t("title")}
      </h2>
      <div className="mt-3">
        <QueryView
          query={list}
          loadingLabel={t("loading")}
          isEmpty={(data) => data.length === 0}
          empty={<EmptyState title={t("emptyTitle")}>{t("emptyHint")}</EmptyState>}
        >
          {(data) => <DataTable label={t("title")} columns={columns} rows={data} rowKey={(q) => q.uid} />}
        </QueryView>
      </div>
    </section>
  );
}
