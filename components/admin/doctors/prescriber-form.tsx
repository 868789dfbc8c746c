"use client";

import { useTranslations } from "next-intl";
import { Field, FormError, SubmitButton, submitWith, useZodForm } from "@/components/ui/form";
import { prescriberDetailsInput, type PrescriberDetailsInput } from "@/server/trpc/routers/admin-doctors.schemas";

type Details = { [K in keyof PrescriberDetailsInput]-?: string | null };

const FIELDS = [
  "professionalTitle",
  "practiceName",
  "practiceStreet",
  "practicePostalCode",
  "practiceCity",
  "practiceCountry",
  "phone",
  "prescriptionEmail",
  "identificationType",
  "identificationValue",
] as const satisfies readonly (keyof Details)[];

const valuesOf = (initial: Details) => Object.fromEntries(FIELDS.map((field) => [field, initial[field] ?? ""])) as Record<keyof Details, string>;

/**
 * A doctor's prescriber details, as each prescription names them (AMVV § 2: profession, practice
 * address with a telephone number; an identification such as the LANR). Empty fields are none;
 * signing refuses a prescription whose doctor lacks the title, the practice address or the telephone.
 */
export function PrescriberForm({
  initial,
  doctorEmail,
  onSubmit,
}: {
  initial: Details;
  doctorEmail: string | null;
  onSubmit: (details: Record<keyof Details, string | null>) => Promise<unknown>;
}) {
  const t = useTranslations("admin.doctors.form");
  const form = useZodForm(prescriberDetailsInput, valuesOf(initial));
  const submit = submitWith(form, onSubmit, (_result, values) => form.reset(valuesOf(values)));
  return (
    <form onSubmit={submit} className="space-y-6" noValidate aria-label={t("label")}>
      <p className="text-sm text-slate-600">{t("intro")}</p>
      <fieldset className="grid min-w-0 gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">{t("profession")}</legend>
        <Field form={form} name="professionalTitle" label={t("professionalTitle")} hint={t("professionalTitleHint")} autoComplete="off" />
        <Field form={form} name="practiceName" label={t("practiceName")} hint={t("practiceNameHint")} autoComplete="organization" />
      </fieldset>
      <fieldset className="grid min-w-0 gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">{t("practiceAddress")}</legend>
        <div className="sm:col-span-2">
          <Field form={form} name="practiceStreet" label={t("street")} autoComplete="street-address" />
        </div>
        <Field form={form} name="practicePostalCode" label={t("postalCode")} autoComplete="postal-code" />
        <Field form={form} name="practiceCity" label={t("city")} autoComplete="address-level2" />
        <Field form={form} name="practiceCountry" label={t("country")} hint={t("countryHint")} maxLength={2} autoComplete="country" />
      </fieldset>
      <fieldset className="grid min-w-0 gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">{t("contact")}</legend>
        <Field form={form} name="phone" label={t("phone")} hint={t("phoneHint")} type="tel" autoComplete="tel" />
        <Field
          form={form}
          name="prescriptionEmail"
          label={t("prescriptionEmail")}
          hint={doctorEmail ? t("prescriptionEmailHint", { email: doctorEmail }) : t("prescriptionEmailHintNone")}
          type="email"
          autoComplete="email"
        />
      </fieldset>
      <fieldset className="grid min-w-0 gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">{t("identification")}</legend>
        <Field form={form} name="identificationType" label={t("identificationType")} hint={t("identificationTypeHint")} autoComplete="off" />
        <Field form={form} name="identificationValue" label={t("identificationValue")} hint={t("identificationValueHint")} inputMode="numeric" autoComplete="off" />
      </fieldset>
      <FormError form={form} />
      <SubmitButton form={form}>{form.formState.isSubmitting ? t("saving") : t("save")}</SubmitButton>
    </form>
  );
}
