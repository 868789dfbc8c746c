"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Field, FormError, SubmitButton, inputClass, useZodForm, submitWith } from "@/components/ui/form";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState, Notice } from "@/components/ui/states";
import { useTRPC } from "@/components/trpc/react";
import { HIDDEN_SKU_TYPE_LABELS, changeHiddenSkuTypeInput } from "@/server/trpc/routers/admin-settings.schemas";
import { SettingsSection } from "./section";

type HiddenSkuType = keyof typeof HIDDEN_SKU_TYPE_LABELS;
const TYPES = Object.keys(HIDDEN_SKU_TYPE_LABELS) as HiddenSkuType[];
type Pharmacy = { uid: string; displayName: string; hiddenSkuType: HiddenSkuType };

/** Each pharmacy's hidden SKU type: SKUs of that type do not exist for the pharmacy's API and portal. */
export function HiddenSkuTypes() {
  const t = useTranslations("admin.settings.hiddenSku");
  const trpc = useTRPC();
  const list = useQuery(trpc.admin.settings.hiddenSkuTypes.list.queryOptions());
  const columns: Column<Pharmacy>[] = [
    { header: t("pharmacy"), key: true, cell: (pharmacy) => pharmacy.displayName },
    { header: t("title"), cell: (pharmacy) => <HiddenSkuTypeForm pharmacy={pharmacy} /> },
  ];
  return (
    <SettingsSection id="hidden-sku-types" title={t("title")} description={t("description")}>
      <QueryView
        query={list}
        loadingLabel={t("loading")}
        isEmpty={(data) => data.length === 0}
        empty={<EmptyState title={t("emptyTitle")}>{t("emptyHint")}</EmptyState>}
      >
        {(data) => <DataTable label={t("title")} columns={columns} rows={data} rowKey={(p) => p.uid} rowClassName={() => "align-top"} />}
      </QueryView>
    </SettingsSection>
  );
}

function HiddenSkuTypeForm({ pharmacy }: { pharmacy: Pharmacy }) {
  const t = useTranslations("admin.settings.hiddenSku");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(changeHiddenSkuTypeInput, { pharmacyUid: pharmacy.uid, hiddenSkuType: pharmacy.hiddenSkuType });
  const [saved, setSaved] = useState(false);
  const change = useMutation(trpc.admin.settings.hiddenSkuTypes.change.mutationOptions());
  const submit = submitWith(form, change.mutateAsync, async () => {
    setSaved(true);
    await queryClient.invalidateQueries({ queryKey: trpc.admin.settings.hiddenSkuTypes.list.pathKey() });
  });
  return (
    <form className="flex flex-wrap items-end gap-3" onSubmit={submit} noValidate>
      <div className="w-full sm:w-auto sm:min-w-56">
        <Field form={form} name="hiddenSkuType" label={t("typeOf", { name: pharmacy.displayName })}>
          {(control) => (
            <select {...control} {...form.register("hiddenSkuType", { onChange: () => setSaved(false) })} className={inputClass}>
              {TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`types.${type}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <SubmitButton form={form} tone="secondary" aria-label={t("saveLabel", { name: pharmacy.displayName })} onClick={() => setSaved(false)}>
        {t("save")}
      </SubmitButton>
      {saved ? <Notice>{t("saved")}</Notice> : null}
      <FormError form={form} />
    </form>
  );
}
