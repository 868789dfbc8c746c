"use client";

import { useTranslations } from "next-intl";
import { useMemo } from "react";
import { z } from "zod";
import { Field, FormError, SubmitButton, useZodForm, submitWith } from "@/components/ui/form";
import type { PharmacyFieldsInput } from "@/server/trpc/routers/admin-pharmacies.schemas";
import { SelectControl } from "@/components/admin/catalogue/shared";
import { textareaClass } from "@/components/issue-threads/thread-conversation";

/** A pharmacy as the form starts from (the edit page's pharmacy, or nothing for a new one). */
export type PharmacyFormValues = {
  displayName: string;
  email: string | null;
  address: { line1: string; line2?: string; postal_code: string; city: string; country: string } | null;
  locationId: string | null;
  group: { uid: string } | null;
  connector: { url: string; headerNames: string[]; timeoutMs: number } | null;
};

type Group = { uid: string; displayName: string };

/** "Name: value" per line → headers; null when a line does not fit. */
function parseHeaders(text: string): Record<string, string> | null {
  const headers: Record<string, string> = {};
  for (const line of text.split("\n").map((l) => l.trim()).filter(Boolean)) {
    const colon = line.indexOf(":");
    if (colon <= 0) return null;
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * The form's fields as typed, named as the procedure's input (`address.country`,
 * `systemConnector.url` …) so the server's field errors land under them; `toInput` builds the input.
 */
function formSchema(headerMessage: string) {
  return z.object({
    displayName: z.string(),
    email: z.string(),
    groupUid: z.string(),
    locationId: z.string(),
    address: z.object({ line1: z.string(), line2: z.string(), postal_code: z.string(), city: z.string(), country: z.string() }),
    systemConnector: z.object({
      url: z.string(),
      timeoutMs: z.string(),
      headers: z.string().refine((text) => !text.trim() || parseHeaders(text) !== null, headerMessage),
      removeHeaders: z.boolean(),
    }),
  });
}
type FormValues = z.output<ReturnType<typeof formSchema>>;

const trimmed = (value: string) => value.trim();

function toInput(v: FormValues): PharmacyFieldsInput {
  const address = { line1: trimmed(v.address.line1), line2: trimmed(v.address.line2), postal_code: trimmed(v.address.postal_code), city: trimmed(v.address.city), country: trimmed(v.address.country) };
  const url = trimmed(v.systemConnector.url);
  const headers = v.systemConnector.headers.trim() ? parseHeaders(v.systemConnector.headers)! : v.systemConnector.removeHeaders ? {} : undefined;
  const timeout = trimmed(v.systemConnector.timeoutMs);
  return {
    displayName: trimmed(v.displayName),
    email: trimmed(v.email),
    address: Object.values(address).some(Boolean) ? address : null,
    groupUid: v.groupUid || null,
    locationId: trimmed(v.locationId),
    systemConnector: url ? { url, headers, ...(timeout ? { timeoutMs: Number(timeout) } : {}) } : null,
  };
}

const valuesOf = (initial: PharmacyFormValues | null) => ({
  displayName: initial?.displayName ?? "",
  email: initial?.email ?? "",
  groupUid: initial?.group?.uid ?? "",
  locationId: initial?.locationId ?? "",
  address: {
    line1: initial?.address?.line1 ?? "",
    line2: initial?.address?.line2 ?? "",
    postal_code: initial?.address?.postal_code ?? "",
    city: initial?.address?.city ?? "",
    country: initial?.address?.country ?? "",
  },
  systemConnector: { url: initial?.connector?.url ?? "", timeoutMs: initial?.connector?.timeoutMs?.toString() ?? "", headers: "", removeHeaders: false },
});

/**
 * A pharmacy's fields: name, e-mail, postal address, group, location id and the pharmacy-system
 * connector. Stored header values are never shown: left empty, an edit keeps them. `onSubmit`
 * sends them; a refusal shows under its fields.
 */
export function PharmacyForm({
  initial,
  groups,
  submitLabel,
  onSubmit,
}: {
  initial: PharmacyFormValues | null;
  groups: Group[];
  submitLabel: string;
  onSubmit: (fields: PharmacyFieldsInput) => Promise<unknown>;
}) {
  const t = useTranslations("admin.pharmacies.form");
  const schema = useMemo(() => formSchema(t("headersFormat")), [t]);
  const form = useZodForm(schema, valuesOf(initial));
  const storedHeaders = initial?.connector?.headerNames ?? [];
  const submit = submitWith(form, (values) => onSubmit(toInput(values)));

  return (
    <form onSubmit={submit} className="space-y-6" noValidate>
      <fieldset className="grid min-w-0 gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">{t("pharmacy")}</legend>
        <Field form={form} name="displayName" label={t("displayName")} required />
        <Field form={form} name="email" label={t("email")} type="email" />
        <Field form={form} name="groupUid" label={t("group")}>
          {(control) => (
            <SelectControl {...control} {...form.register("groupUid")}>
              <option value="">{t("noGroup")}</option>
              {groups.map((g) => (
                <option key={g.uid} value={g.uid}>
                  {g.displayName}
                </option>
              ))}
            </SelectControl>
          )}
        </Field>
        <Field form={form} name="locationId" label={t("locationId")} hint={t("locationIdHint")} />
      </fieldset>
      <fieldset className="grid min-w-0 gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">{t("address")}</legend>
        <Field form={form} name="address.line1" label={t("line1")} />
        <Field form={form} name="address.line2" label={t("line2")} />
        <Field form={form} name="address.postal_code" label={t("postalCode")} />
        <Field form={form} name="address.city" label={t("city")} />
        <Field form={form} name="address.country" label={t("country")} maxLength={2} hint={t("countryHint")} />
      </fieldset>
      <fieldset className="grid min-w-0 gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">{t("connector")}</legend>
        <p className="text-xs text-slate-500 sm:col-span-2">{t("connectorIntro", { path: "GET {URL}/orders/{uid}" })}</p>
        <Field form={form} name="systemConnector.url" label={t("connectorUrl")} type="url" />
        <Field form={form} name="systemConnector.timeoutMs" label={t("timeout")} type="number" min={100} max={60000} hint={t("timeoutHint")} />
        <div className="sm:col-span-2">
          <Field
            form={form}
            name="systemConnector.headers"
            label={t("headers")}
            hint={storedHeaders.length > 0 ? t("headersHintStored", { names: storedHeaders.map((name) => `${name}: ••••`).join(", ") }) : t("headersHint")}
          >
            {(control) => <textarea {...control} {...form.register("systemConnector.headers")} rows={2} placeholder="Authorization: Bearer …" className={`${textareaClass} font-mono`} />}
          </Field>
          {storedHeaders.length > 0 ? (
            <label className="mt-2 flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" {...form.register("systemConnector.removeHeaders")} className="size-4 rounded border-slate-300" />
              {t("removeHeaders")}
            </label>
          ) : null}
        </div>
      </fieldset>
      <FormError form={form} />
      <SubmitButton form={form}>{form.formState.isSubmitting ? t("saving") : submitLabel}</SubmitButton>
    </form>
  );
}
