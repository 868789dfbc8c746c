"use client";

import { useTranslations } from "next-intl";
import { Field, FormError, SubmitButton, submitWith, useZodForm } from "@/components/ui/form";
import { doctorSettingsInput, MINUTES_TO_RESPOND_MAX } from "@/server/trpc/routers/admin-doctors.schemas";

type Doctor = {
  name: string;
  email: string | null;
  minutesToRespond: number | null;
  canSignQes: boolean;
  canSeeAllPrescriptions: boolean;
  questionnaireUids: string[];
};

const valuesOf = (d: Doctor) => ({
  name: d.name,
  email: d.email ?? "",
  minutesToRespond: d.minutesToRespond === null ? "" : String(d.minutesToRespond),
  canSignQes: d.canSignQes,
  canSeeAllPrescriptions: d.canSeeAllPrescriptions,
  questionnaireUids: d.questionnaireUids,
});

/**
 * A doctor's name, e-mail, minutes to respond, rights and assigned questionnaires. The questionnaires
 * matter only while the doctor does not see all prescriptions: then their queue offers them unassigned
 * requests of these questionnaires only (and those assigned to them).
 */
export function SettingsForm({
  doctor,
  questionnaires,
  onSubmit,
}: {
  doctor: Doctor;
  questionnaires: { uid: string; name: string }[];
  onSubmit: (values: {
    name: string;
    email: string | null;
    minutesToRespond: number | null;
    canSignQes: boolean;
    canSeeAllPrescriptions: boolean;
    questionnaireUids: string[];
  }) => Promise<Doctor>;
}) {
  const t = useTranslations("admin.doctors.settings");
  const form = useZodForm(doctorSettingsInput, valuesOf(doctor));
  const submit = submitWith(form, onSubmit, (result) => form.reset(valuesOf(result)));
  const seesAll = form.watch("canSeeAllPrescriptions");
  const chosen = form.watch("questionnaireUids");
  const toggle = (uid: string, on: boolean) =>
    form.setValue("questionnaireUids", on ? [...chosen.filter((u) => u !== uid), uid] : chosen.filter((u) => u !== uid), { shouldDirty: true });
  const questionnaireError = form.formState.errors.questionnaireUids?.message;
  return (
    <form onSubmit={submit} className="space-y-6" noValidate aria-label={t("label")}>
      <fieldset className="grid min-w-0 gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">{t("person")}</legend>
        <Field form={form} name="name" label={t("name")} hint={t("nameHint")} maxLength={200} autoComplete="off" />
        <Field form={form} name="email" label={t("email")} hint={t("emailHint")} type="email" autoComplete="off" />
        <Field
          form={form}
          name="minutesToRespond"
          label={t("minutesToRespond")}
          hint={t("minutesToRespondHint", { max: MINUTES_TO_RESPOND_MAX })}
          inputMode="numeric"
          autoComplete="off"
        />
      </fieldset>
      <fieldset className="min-w-0 space-y-3">
        <legend className="mb-2 text-sm font-semibold text-slate-900">{t("rights")}</legend>
        <label className="flex items-start gap-2 text-sm text-slate-800">
          <input type="checkbox" {...form.register("canSignQes")} className="mt-0.5 size-4 rounded border-slate-300" />
          <span>
            {t("canSign")}
            <span className="block text-xs text-slate-500">{t("canSignHint")}</span>
          </span>
        </label>
        <label className="flex items-start gap-2 text-sm text-slate-800">
          <input type="checkbox" {...form.register("canSeeAllPrescriptions")} className="mt-0.5 size-4 rounded border-slate-300" />
          <span>
            {t("seesAll")}
            <span className="block text-xs text-slate-500">{t("seesAllHint")}</span>
          </span>
        </label>
      </fieldset>
      <fieldset className="min-w-0 space-y-2" aria-describedby="assigned-questionnaires-hint">
        <legend className="text-sm font-semibold text-slate-900">{t("questionnaires")}</legend>
        <p id="assigned-questionnaires-hint" className="text-xs text-slate-500">
          {seesAll ? t("questionnairesSeesAll") : t("questionnairesHint")}
        </p>
        {questionnaires.length === 0 ? (
          <p className="text-sm text-slate-600">{t("noQuestionnaires")}</p>
        ) : (
          <ul className="grid gap-2 sm:grid-cols-2">
            {questionnaires.map((q) => (
              <li key={q.uid}>
                <label className="flex items-start gap-2 text-sm break-words text-slate-800">
                  <input
                    type="checkbox"
                    checked={chosen.includes(q.uid)}
                    onChange={(e) => toggle(q.uid, e.target.checked)}
                    className="mt-0.5 size-4 shrink-0 rounded border-slate-300"
                  />
                  <span className="min-w-0">{q.name}</span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {questionnaireError ? <p className="text-xs text-red-700">{questionnaireError}</p> : null}
      </fieldset>
      <FormError form={form} />
      <SubmitButton form={form}>{form.formState.isSubmitting ? t("saving") : t("save")}</SubmitButton>
    </form>
  );
}
