"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Button } from "@/components/ui/controls";
import { Field, FormError, SubmitButton, submitWith, useZodForm } from "@/components/ui/form";
import { useFormat } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { ErrorState, Notice } from "@/components/ui/states";
import type { AppRouter } from "@/server/trpc/router";
import { savePaymentConnectionInput, setPharmacyOrganizationInput } from "@/server/trpc/routers/admin-payment-provider.schemas";
import { cardClass, SettingsSection } from "./section";

type Settings = inferRouterOutputs<AppRouter>["admin"]["paymentProvider"]["settings"];

/**
 * The payment provider for split payouts (Mollie): the organisation's account (endpoint, API key
 * shown masked, Test connection, removal after a confirmation) and each pharmacy's Mollie
 * organization id, where its payout routes go.
 */
export function PaymentProvider() {
  const t = useTranslations("admin.settings.paymentProvider");
  const trpc = useTRPC();
  const settings = useQuery(trpc.admin.paymentProvider.settings.queryOptions());
  return (
    <SettingsSection id="payment-provider" title={t("title")} description={t("description")}>
      <QueryView query={settings} loadingLabel={t("loading")}>
        {(data) => (
          <>
            <Connection settings={data} />
            <Pharmacies settings={data} />
          </>
        )}
      </QueryView>
    </SettingsSection>
  );
}

function Connection({ settings }: { settings: Settings }) {
  const t = useTranslations("admin.settings.paymentProvider");
  const format = useFormat();
  const errorMessage = useErrorMessage();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.paymentProvider.settings.queryKey() });
  const { connection } = settings;
  const form = useZodForm(savePaymentConnectionInput, { apiEndpoint: connection?.apiEndpoint ?? "", apiKey: "" });
  const [saved, setSaved] = useState(false);
  const save = useMutation(trpc.admin.paymentProvider.save.mutationOptions());
  const test = useMutation(trpc.admin.paymentProvider.testConnection.mutationOptions());
  const remove = useMutation(trpc.admin.paymentProvider.remove.mutationOptions());
  const submit = submitWith(form, save.mutateAsync, async (result) => {
    setSaved(true);
    test.reset();
    form.reset({ apiEndpoint: result?.apiEndpoint ?? "", apiKey: "" });
    await refresh();
  });

  return (
    <div className={`${cardClass} space-y-4`}>
      <h3 className="text-sm font-semibold text-slate-900">{t("connectionHeading")}</h3>
      <p className="text-sm break-words text-slate-700">
        {connection
          ? t("connected", { key: connection.apiKeyHint, endpoint: connection.apiEndpoint, date: format.dateTime(connection.updatedAt) })
          : t("notConnected")}
      </p>
      <form onSubmit={submit} noValidate aria-label={t("connectionHeading")} className="space-y-4" onChange={() => setSaved(false)}>
        <div className="grid items-start gap-4 md:grid-cols-2">
          <Field form={form} name="apiEndpoint" label={t("apiEndpoint")} hint={t("apiEndpointHint", { url: settings.defaultApiEndpoint })} maxLength={2048} placeholder={settings.defaultApiEndpoint} />
          <Field
            form={form}
            name="apiKey"
            label={t("apiKey")}
            hint={connection ? t("apiKeyKeepHint") : t("apiKeyHint")}
            type="password"
            autoComplete="off"
            maxLength={200}
          />
        </div>
        <FormError form={form} />
        {saved ? <Notice>{t("saved")}</Notice> : null}
        <div className="flex flex-wrap gap-2">
          <SubmitButton form={form}>{t("save")}</SubmitButton>
          <Button tone="secondary" disabled={!connection || test.isPending} onClick={() => test.mutate()}>
            {test.isPending ? t("testing") : t("test")}
          </Button>
          {connection ? (
            <ConfirmButton
              title={t("removeTitle")}
              confirmLabel={t("removeConfirm")}
              pendingLabel={t("removing")}
              consequence={t("removeConsequence")}
              onConfirm={async () => {
                await remove.mutateAsync();
                test.reset();
                form.reset({ apiEndpoint: "", apiKey: "" });
                await refresh();
              }}
            >
              {t("remove")}
            </ConfirmButton>
          ) : null}
        </div>
      </form>
      {test.data ? test.data.ok ? <Notice>{t("testOk", { message: test.data.message })}</Notice> : <ErrorState message={t("testFailed", { message: test.data.message })} /> : null}
      {test.error ? <ErrorState message={errorMessage(test.error)} /> : null}
    </div>
  );
}

function Pharmacies({ settings }: { settings: Settings }) {
  const t = useTranslations("admin.settings.paymentProvider");
  return (
    <div className={`${cardClass} space-y-4`}>
      <h3 className="text-sm font-semibold text-slate-900">{t("pharmaciesHeading")}</h3>
      <p className="text-sm text-slate-600">{t("pharmaciesIntro")}</p>
      {settings.pharmacies.length === 0 ? (
        <p className="text-sm text-slate-600">{t("noPharmacies")}</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {settings.pharmacies.map((pharmacy) => (
            <li key={pharmacy.uid} className="py-3">
              <PharmacyOrganization pharmacy={pharmacy} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function PharmacyOrganization({ pharmacy }: { pharmacy: Settings["pharmacies"][number] }) {
  const t = useTranslations("admin.settings.paymentProvider");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(setPharmacyOrganizationInput, { pharmacyUid: pharmacy.uid, mollieOrganizationId: pharmacy.mollieOrganizationId ?? "" });
  const [saved, setSaved] = useState(false);
  const change = useMutation(trpc.admin.paymentProvider.setPharmacyOrganization.mutationOptions());
  const submit = submitWith(form, change.mutateAsync, async (result) => {
    setSaved(true);
    form.reset({ pharmacyUid: pharmacy.uid, mollieOrganizationId: result.mollieOrganizationId ?? "" });
    await queryClient.invalidateQueries({ queryKey: trpc.admin.paymentProvider.settings.queryKey() });
  });
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={t("organizationFor", { pharmacy: pharmacy.displayName })}
      onChange={() => setSaved(false)}
      className="grid items-end gap-3 sm:grid-cols-[minmax(0,1fr)_auto]"
    >
      <Field form={form} name="mollieOrganizationId" label={t("organizationFor", { pharmacy: pharmacy.displayName })} placeholder="org_…" maxLength={100} />
      <div className="flex flex-wrap items-center gap-3 sm:pb-0.5">
        <SubmitButton form={form} tone="secondary" aria-label={t("saveOrganizationFor", { pharmacy: pharmacy.displayName })}>
          {t("saveOrganization")}
        </SubmitButton>
        {saved ? <span className="text-sm text-emerald-700">{t("organizationSaved")}</span> : null}
      </div>
      <div className="sm:col-span-2">
        <FormError form={form} />
      </div>
    </form>
  );
}
