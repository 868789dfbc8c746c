"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import type { FieldValues, Path } from "react-hook-form";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Field, FormError, SubmitButton, inputClass, useZodForm, submitWith, type AnyForm } from "@/components/ui/form";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { useFormat } from "@/components/ui/format";
import { useTRPC } from "@/components/trpc/react";
import { changeWalletPassTemplateInput, createWalletPassTemplateInput } from "@/server/trpc/routers/admin-settings.schemas";
import { cardClass, EditAndRemove, EditCard, SettingsSection } from "./section";

type Shop = { uid: string; identifier: string; displayName: string };
type Template = { uid: string; displayName: string; passType: string; requiresSignedPrescription: boolean; shop: Shop; livePasses: number };

/** Wallet pass templates per shop, as the Management API's GET /wallet-passes/templates lists them. */
export function WalletPassTemplates() {
  const t = useTranslations("admin.settings.walletTemplates");
  const format = useFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.admin.settings.walletPassTemplates.list.queryOptions());
  const [editing, setEditing] = useState<Template | null>(null);
  const remove = useMutation(
    trpc.admin.settings.walletPassTemplates.delete.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.admin.settings.walletPassTemplates.list.pathKey() }),
    }),
  );
  const columns: Column<Template>[] = [
    {
      header: t("template"),
      key: true,
      cell: (template) => (
        <>
          <p className="font-medium text-slate-900">{template.displayName}</p>
          <p className="font-mono text-xs font-normal text-slate-500">
            {template.uid} · {template.passType}
          </p>
        </>
      ),
    },
    {
      header: t("shop"),
      cell: (template) => (
        <>
          {template.shop.displayName}
          <p className="font-mono text-xs text-slate-500">{template.shop.identifier}</p>
        </>
      ),
    },
    { header: t("requires"), cell: (template) => (template.requiresSignedPrescription ? t("yes") : t("no")) },
    { header: t("livePasses"), cell: (template) => format.number(template.livePasses) },
    {
      header: t("actions"),
      headerHidden: true,
      cell: (template) => (
        <EditAndRemove
          edit={{ label: t("editLabel", { name: template.displayName }), text: t("edit") }}
          onEdit={() => setEditing(template)}
          remove={{
            text: t("delete"),
            buttonLabel: t("deleteLabel", { name: template.displayName }),
            title: t("deleteTitle", { name: template.displayName }),
            confirmLabel: t("confirmDelete"),
            pendingLabel: t("deleting"),
            onConfirm: () => remove.mutateAsync({ templateUid: template.uid }),
            consequence: <p>{t("deleteConsequence")}</p>,
          }}
        />
      ),
    },
  ];
  return (
    <SettingsSection id="wallet-pass-templates" title={t("title")} description={t("description")}>
      <QueryView query={list} loadingLabel={t("loading")}>
        {(data) => (
          <>
            {data.shops.length === 0 ? <EmptyState title={t("noShopsTitle")}>{t("noShopsHint")}</EmptyState> : <CreateForm shops={data.shops} />}
            {editing ? <EditForm key={editing.uid} template={editing} onDone={() => setEditing(null)} /> : null}
            {data.templates.length === 0 ? (
              <EmptyState title={t("emptyTitle")}>{t("emptyHint")}</EmptyState>
            ) : (
              <DataTable label={t("title")} columns={columns} rows={data.templates} rowKey={(template) => template.uid} rowClassName={() => "align-top"} />
            )}
          </>
        )}
      </QueryView>
    </SettingsSection>
  );
}

/** A template's name and whether it needs a signed prescription (creating one, changing one). */
function TemplateInputs<V extends FieldValues>({ form }: { form: AnyForm<V> }) {
  const t = useTranslations("admin.settings.walletTemplates");
  return (
    <>
      <Field form={form} name={"displayName" as Path<V>} label={t("templateName")} maxLength={200} />
      <label className="flex items-center gap-3 text-sm text-slate-900 sm:pt-7">
        <input type="checkbox" {...form.register("requiresSignedPrescription" as Path<V>)} className="size-4 rounded border-slate-300 text-brand-700 focus:ring-brand-100" />
        {t("requires")}
      </label>
    </>
  );
}

function CreateForm({ shops }: { shops: Shop[] }) {
  const t = useTranslations("admin.settings.walletTemplates");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(createWalletPassTemplateInput, { shopUid: shops[0]!.uid, displayName: "", requiresSignedPrescription: false });
  const create = useMutation(trpc.admin.settings.walletPassTemplates.create.mutationOptions());
  const submit = submitWith(form, create.mutateAsync, async (_, values) => {
    form.reset({ shopUid: values.shopUid, displayName: "", requiresSignedPrescription: false });
    await queryClient.invalidateQueries({ queryKey: trpc.admin.settings.walletPassTemplates.list.pathKey() });
  });
  return (
    <form onSubmit={submit} noValidate aria-label={t("createLabel")} className={cardClass}>
      <div className="grid items-start gap-4 sm:grid-cols-3">
        <Field form={form} name="shopUid" label={t("shop")}>
          {(control) => (
            <select {...control} {...form.register("shopUid")} className={inputClass}>
              {shops.map((s) => (
                <option key={s.uid} value={s.uid}>
                  {t("shopOption", { name: s.displayName, identifier: s.identifier })}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TemplateInputs form={form} />
      </div>
      <div className="mt-4">
        <SubmitButton form={form}>{t("create")}</SubmitButton>
      </div>
      <FormError form={form} />
    </form>
  );
}

function EditForm({ template, onDone }: { template: Template; onDone: () => void }) {
  const t = useTranslations("admin.settings.walletTemplates");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(changeWalletPassTemplateInput, {
    templateUid: template.uid,
    displayName: template.displayName,
    requiresSignedPrescription: template.requiresSignedPrescription,
  });
  const change = useMutation(trpc.admin.settings.walletPassTemplates.change.mutationOptions());
  const submit = submitWith(form, change.mutateAsync, async () => {
    onDone();
    await queryClient.invalidateQueries({ queryKey: trpc.admin.settings.walletPassTemplates.list.pathKey() });
  });
  return (
    <EditCard form={form} onSubmit={submit} label={t("editLabel", { name: template.displayName })} heading={t("editHeading", { name: template.displayName })} saveText={t("save")} onCancel={onDone}>
      <TemplateInputs form={form} />
    </EditCard>
  );
}
