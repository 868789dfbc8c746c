"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import type { FieldValues, Path } from "react-hook-form";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Field, FormError, SubmitButton, inputClass, useZodForm, submitWith, type AnyForm } from "@/components/ui/form";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState, Notice } from "@/components/ui/states";
import { useFormat } from "@/components/ui/format";
import { useTRPC } from "@/components/trpc/react";
import { addProfileFieldInput, changeProfileFieldInput } from "@/server/trpc/routers/admin-settings.schemas";
import { cardClass, EditAndRemove, EditCard, SettingsSection } from "./section";

type ProfileField = { uid: string; key: string; displayName: string; type: string; source: string; valueCount: number };
type Options = { types: string[]; sources: string[] };

/** Patient profile fields: what the Management API's `fields` and the patient-data endpoints accept by key. */
export function ProfileFields() {
  const t = useTranslations("admin.settings.profileFields");
  const format = useFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.admin.settings.profileFields.list.queryOptions());
  const [editing, setEditing] = useState<ProfileField | null>(null);
  const remove = useMutation(
    trpc.admin.settings.profileFields.remove.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.admin.settings.profileFields.list.pathKey() }),
    }),
  );
  const columns: Column<ProfileField>[] = [
    { header: t("key"), key: true, className: "font-mono", cell: (f) => f.key },
    { header: t("label"), cell: (f) => f.displayName },
    { header: t("type"), cell: (f) => f.type },
    { header: t("source"), cell: (f) => f.source },
    { header: t("valueCount"), cell: (f) => format.number(f.valueCount) },
    {
      header: t("actions"),
      headerHidden: true,
      cell: (f) => (
        <EditAndRemove
          edit={{ label: t("editLabel", { key: f.key }), text: t("edit") }}
          onEdit={() => setEditing(f)}
          remove={{
            text: t("remove"),
            buttonLabel: t("removeLabel", { key: f.key }),
            title: t("removeTitle", { key: f.key }),
            confirmLabel: t("confirmRemove"),
            pendingLabel: t("removing"),
            onConfirm: () => remove.mutateAsync({ fieldUid: f.uid }),
            consequence: <p>{t("removeConsequence", { count: f.valueCount })}</p>,
          }}
        />
      ),
    },
  ];
  return (
    <SettingsSection
      id="profile-fields"
      title={t("title")}
      description={t.rich("description", { code: (chunks) => <code>{chunks}</code> })}
    >
      <QueryView query={list} loadingLabel={t("loading")}>
        {(data) => (
          <>
            <AddForm options={data} />
            {editing ? <EditForm key={editing.uid} field={editing} options={data} onDone={() => setEditing(null)} /> : null}
            {data.fields.length === 0 ? (
              <EmptyState title={t("emptyTitle")}>{t("emptyHint")}</EmptyState>
            ) : (
              <DataTable label={t("title")} columns={columns} rows={data.fields} rowKey={(f) => f.uid} rowClassName={() => "align-top"} />
            )}
          </>
        )}
      </QueryView>
    </SettingsSection>
  );
}

/** The label, type and source of a field (adding one, changing one); a field's current value stays a choice. */
function FieldInputs<V extends FieldValues>({ form, options, current }: { form: AnyForm<V>; options: Options; current?: { type: string; source: string } }) {
  const t = useTranslations("admin.settings.profileFields");
  const choices = (values: string[], extra?: string) => [...new Set([...values, ...(extra ? [extra] : [])])];
  return (
    <>
      <Field form={form} name={"displayName" as Path<V>} label={t("fieldLabel")} maxLength={200} />
      <Field form={form} name={"type" as Path<V>} label={t("fieldType")}>
        {(control) => (
          <select {...control} {...form.register("type" as Path<V>)} className={inputClass}>
            {choices(options.types, current?.type).map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field form={form} name={"source" as Path<V>} label={t("fieldSource")}>
        {(control) => (
          <select {...control} {...form.register("source" as Path<V>)} className={inputClass}>
            {choices(options.sources, current?.source).map((source) => (
              <option key={source} value={source}>
                {source}
              </option>
            ))}
          </select>
        )}
      </Field>
    </>
  );
}

function AddForm({ options }: { options: Options }) {
  const t = useTranslations("admin.settings.profileFields");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const defaults = { key: "", displayName: "", type: options.types[0] ?? "text", source: options.sources[0] ?? "shop" };
  const form = useZodForm(addProfileFieldInput, defaults);
  const [added, setAdded] = useState<string | null>(null);
  const add = useMutation(trpc.admin.settings.profileFields.add.mutationOptions());
  const submit = submitWith(
    form,
    (values) => {
      setAdded(null);
      return add.mutateAsync(values);
    },
    async (_, values) => {
      setAdded(values.key);
      form.reset({ ...defaults, type: values.type, source: values.source });
      await queryClient.invalidateQueries({ queryKey: trpc.admin.settings.profileFields.list.pathKey() });
    },
  );
  return (
    <form onSubmit={submit} noValidate aria-labelledby="add-field-heading" className={cardClass}>
      <h3 id="add-field-heading" className="text-sm font-semibold text-slate-900">
        {t("addHeading")}
      </h3>
      <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Field form={form} name="key" label={t("fieldKey")} maxLength={64} hint={t("fieldKeyHint")} />
        <FieldInputs form={form} options={options} />
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <SubmitButton form={form}>{t("add")}</SubmitButton>
        {added ? <Notice>{t("added", { key: added })}</Notice> : null}
      </div>
      <FormError form={form} />
    </form>
  );
}

function EditForm({ field, options, onDone }: { field: ProfileField; options: Options; onDone: () => void }) {
  const t = useTranslations("admin.settings.profileFields");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(changeProfileFieldInput, { fieldUid: field.uid, displayName: field.displayName, type: field.type, source: field.source });
  const change = useMutation(trpc.admin.settings.profileFields.change.mutationOptions());
  const submit = submitWith(form, change.mutateAsync, async () => {
    onDone();
    await queryClient.invalidateQueries({ queryKey: trpc.admin.settings.profileFields.list.pathKey() });
  });
  return (
    <EditCard form={form} onSubmit={submit} label={t("editLabel", { key: field.key })} heading={t("editHeading", { key: field.key })} saveText={t("save")} onCancel={onDone}>
      <FieldInputs form={form} options={options} current={field} />
    </EditCard>
  );
}
