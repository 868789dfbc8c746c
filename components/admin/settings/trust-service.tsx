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
import { saveTrustServiceInput } from "@/server/trpc/routers/admin-trust-service.schemas";
import { cardClass, SettingsSection } from "./section";

type Settings = inferRouterOutputs<AppRouter>["admin"]["trustService"]["settings"];

/**
 * The organisation's qualified trust service (CSC API v2): its name, API base URL, token URL, the
 * client id and secret (shown masked), Test connection, and removal after a confirmation (which
 * unlinks every doctor's credential). docs/decisions/prescriptions.md#remote-qualified-signatures.
 */
export function TrustService() {
  const t = useTranslations("admin.settings.trustService");
  const trpc = useTRPC();
  const settings = useQuery(trpc.admin.trustService.settings.queryOptions());
  return (
    <SettingsSection id="trust-service" title={t("title")} description={t("description")}>
      <QueryView query={settings} loadingLabel={t("loading")}>
        {(data) => <Connection settings={data} />}
      </QueryView>
    </SettingsSection>
  );
}

function Connection({ settings }: { settings: Settings }) {
  const t = useTranslations("admin.settings.trustService");
  const format = useFormat();
  const errorMessage = useErrorMessage();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.trustService.settings.queryKey() });
  const { connection } = settings;
  const defaults = (c: Settings["connection"]) => ({
    displayName: c?.displayName ?? "",
    baseUrl: c?.baseUrl ?? "",
    tokenUrl: c?.tokenUrl ?? "",
    clientId: c?.clientId ?? "",
    clientSecret: "",
  });
  const form = useZodForm(saveTrustServiceInput, defaults(connection));
  const [saved, setSaved] = useState(false);
  const save = useMutation(trpc.admin.trustService.save.mutationOptions());
  const test = useMutation(trpc.admin.trustService.testConnection.mutationOptions());
  const remove = useMutation(trpc.admin.trustService.remove.mutationOptions());
  const submit = submitWith(form, save.mutateAsync, async (result) => {
    setSaved(true);
    test.reset();
    form.reset(defaults(result));
    await refresh();
  });

  return (
    <div className={`${cardClass} space-y-4`}>
      <h3 className="text-sm font-semibold text-slate-900">{t("connectionHeading")}</h3>
      <div className="space-y-1 text-sm break-words text-slate-700">
        {connection ? (
          <>
            <p>
              {t("connected", {
                name: connection.displayName,
                baseUrl: connection.baseUrl,
                clientId: connection.clientId,
                hint: connection.clientSecretHint,
                date: format.dateTime(connection.updatedAt),
              })}
            </p>
            <p>{t("linkedDoctors", { count: settings.linkedDoctors })}</p>
          </>
        ) : (
          <p>{t("notConnected")}</p>
        )}
      </div>
      <form onSubmit={submit} noValidate aria-label={t("connectionHeading")} className="space-y-4" onChange={() => setSaved(false)}>
        <div className="grid items-start gap-4 md:grid-cols-2">
          <Field form={form} name="displayName" label={t("displayName")} hint={t("displayNameHint")} maxLength={100} />
          <Field form={form} name="baseUrl" label={t("baseUrl")} hint={t("baseUrlHint")} maxLength={2048} inputMode="url" placeholder="https://tsp.example/csc/v2/" />
          <Field form={form} name="tokenUrl" label={t("tokenUrl")} hint={t("tokenUrlHint")} maxLength={2048} inputMode="url" />
          <Field form={form} name="clientId" label={t("clientId")} maxLength={200} autoComplete="off" />
          <Field
            form={form}
            name="clientSecret"
            label={t("clientSecret")}
            hint={connection ? t("clientSecretKeepHint") : t("clientSecretHint")}
            type="password"
            autoComplete="off"
            maxLength={500}
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
                form.reset(defaults(null));
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
