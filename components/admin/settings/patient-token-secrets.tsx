"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { z } from "zod";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { SecretBox } from "@/components/ui/controls";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Field, FormError, SubmitButton, useZodForm, submitWith } from "@/components/ui/form";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState, Notice } from "@/components/ui/states";
import { useFormat } from "@/components/ui/format";
import { useTRPC } from "@/components/trpc/react";
import { createTokenSecretInput } from "@/server/trpc/routers/admin-settings.schemas";
import { cardClass, SettingsSection } from "./section";

/** The create input as the form holds it: an empty audience is no audience (the default). */
const createForm = createTokenSecretInput.extend({
  audience: z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), createTokenSecretInput.shape.audience),
});

type Secret = { uid: string; displayName: string; audience: string; createdAt: number; lastUsedAt: number | null; revokedAt: number | null };

/** Patient token secrets: a partner's backend signs patient tokens for the patient-data endpoints with one. */
export function PatientTokenSecrets() {
  const t = useTranslations("admin.settings.tokenSecrets");
  return (
    <SettingsSection id="patient-token-secrets" title={t("title")} description={t.rich("description", { code: (chunks) => <code>{chunks}</code> })}>
      <CreateForm />
      <SecretList />
    </SettingsSection>
  );
}

function CreateForm() {
  const t = useTranslations("admin.settings.tokenSecrets");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(createForm, { displayName: "", audience: "" });
  const create = useMutation(trpc.admin.settings.patientTokenSecrets.create.mutationOptions());
  const submit = submitWith(form, create.mutateAsync, async () => {
    form.reset();
    await queryClient.invalidateQueries({ queryKey: trpc.admin.settings.patientTokenSecrets.list.pathKey() });
  });
  return (
    <div className={cardClass}>
      <form onSubmit={submit} noValidate aria-label={t("createLabel")} className="grid items-start gap-4 sm:grid-cols-[1fr_1fr_auto]">
        <Field form={form} name="displayName" label={t("name")} maxLength={200} />
        <Field form={form} name="audience" label={t("audience")} maxLength={200} placeholder="patient-data" hint={t("audienceHint")} />
        <div className="sm:pt-6">
          <SubmitButton form={form}>{t("create")}</SubmitButton>
        </div>
        <div className="sm:col-span-3">
          <FormError form={form} />
        </div>
      </form>
      {create.data ? (
        <div className="mt-4 space-y-2">
          <SecretBox label={t("newSecret")} value={create.data.secret} note={t("newSecretNote", { kid: create.data.uid, aud: create.data.audience })} />
        </div>
      ) : null}
    </div>
  );
}

function SecretList() {
  const t = useTranslations("admin.settings.tokenSecrets");
  const format = useFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.admin.settings.patientTokenSecrets.list.queryOptions());
  const [revokedName, setRevokedName] = useState<string | null>(null);
  const revoke = useMutation(
    trpc.admin.settings.patientTokenSecrets.revoke.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.admin.settings.patientTokenSecrets.list.pathKey() }),
    }),
  );
  const columns: Column<Secret>[] = [
    {
      header: t("name"),
      key: true,
      cell: (s) => (
        <>
          <p className="font-medium text-slate-900">{s.displayName}</p>
          <p className="font-mono text-xs font-normal text-slate-500">kid {s.uid}</p>
        </>
      ),
    },
    { header: t("audience"), className: "font-mono text-xs text-slate-700", cell: (s) => s.audience },
    { header: t("created"), className: "md:whitespace-nowrap", cell: (s) => format.dateTime(s.createdAt) },
    { header: t("lastUsed"), className: "md:whitespace-nowrap", cell: (s) => format.dateTime(s.lastUsedAt, t("never")) },
    { header: t("status"), className: "md:whitespace-nowrap", cell: (s) => (s.revokedAt ? t("revokedAt", { when: format.dateTime(s.revokedAt) }) : t("active")) },
    {
      header: t("actions"),
      headerHidden: true,
      className: "md:text-right",
      cell: (s) =>
        s.revokedAt ? null : (
          <ConfirmButton
            buttonLabel={t("revokeLabel", { name: s.displayName })}
            title={t("revokeTitle", { name: s.displayName })}
            confirmLabel={t("confirmRevoke")}
            pendingLabel={t("revoking")}
            onConfirm={async () => {
              await revoke.mutateAsync({ secretUid: s.uid });
              setRevokedName(s.displayName);
            }}
            consequence={<p>{t("revokeConsequence")}</p>}
          >
            {t("revoke")}
          </ConfirmButton>
        ),
    },
  ];
  return (
    <div className="space-y-3">
      {revokedName ? <Notice>{t("revoked", { name: revokedName })}</Notice> : null}
      <QueryView
        query={list}
        loadingLabel={t("loading")}
        isEmpty={(data) => data.length === 0}
        empty={<EmptyState title={t("emptyTitle")}>{t("emptyHint")}</EmptyState>}
      >
        {(data) => <DataTable label={t("title")} columns={columns} rows={data} rowKey={(s) => s.uid} rowClassName={() => "align-top"} />}
      </QueryView>
    </div>
  );
}
