"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Field, FormError, SubmitButton, inputClass, submitWith, useZodForm } from "@/components/ui/form";
import { QueryView } from "@/components/ui/query-view";
import { Notice } from "@/components/ui/states";
import { useTRPC } from "@/components/trpc/react";
import { PRESCRIPTION_LANGUAGES, type PrescriptionLanguage } from "@/server/domain/prescriptions/document-words";
import { changePrescriptionLanguageInput } from "@/server/trpc/routers/admin-settings.schemas";
import { cardClass, SettingsSection } from "./section";

/** The setting "prescription language": the language of the organisation's prescription documents (German by default). */
export function PrescriptionLanguage() {
  const t = useTranslations("admin.settings.prescriptionLanguage");
  const trpc = useTRPC();
  const setting = useQuery(trpc.admin.settings.prescriptionLanguage.get.queryOptions());
  return (
    <SettingsSection id="prescription-language" title={t("title")} description={t("description")}>
      <QueryView query={setting} loadingLabel={t("loading")}>
        {(data) => (
          <div className={cardClass}>
            <PrescriptionLanguageForm language={data.language} />
          </div>
        )}
      </QueryView>
    </SettingsSection>
  );
}

function PrescriptionLanguageForm({ language }: { language: PrescriptionLanguage }) {
  const t = useTranslations("admin.settings.prescriptionLanguage");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(changePrescriptionLanguageInput, { language });
  const [saved, setSaved] = useState(false);
  const change = useMutation(trpc.admin.settings.prescriptionLanguage.change.mutationOptions());
  const submit = submitWith(form, change.mutateAsync, async (result) => {
    setSaved(true);
    form.reset(result);
    await queryClient.invalidateQueries({ queryKey: trpc.admin.settings.prescriptionLanguage.pathKey() });
  });
  return (
    <form onSubmit={submit} noValidate aria-label={t("title")} className="flex flex-wrap items-end gap-3">
      <div className="w-full sm:w-auto sm:min-w-56">
        <Field form={form} name="language" label={t("label")} hint={t("hint")}>
          {(control) => (
            <select {...control} {...form.register("language", { onChange: () => setSaved(false) })} className={inputClass}>
              {PRESCRIPTION_LANGUAGES.map((value) => (
                <option key={value} value={value}>
                  {t(`languages.${value}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <SubmitButton form={form} tone="secondary">
        {t("save")}
      </SubmitButton>
      <div className="w-full">
        <FormError form={form} />
        {saved ? <Notice>{t("saved")}</Notice> : null}
      </div>
    </form>
  );
}
