"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Field, FormError, SubmitButton, SubmitOrCancel, useZodForm, submitWith } from "@/components/ui/form";
import { changeProviderInput, connectProviderInput, saveProviderSettingsInput } from "@/server/trpc/routers/admin.schemas";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Button, SecretBox } from "@/components/ui/controls";
import { EmptyState, ErrorState, Notice } from "@/components/ui/states";
import { QueryView } from "@/components/ui/query-view";
import { useFormat } from "@/components/ui/format";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";

type Provider = {
  uid: string;
  displayName: string;
  identifier: string;
  allowNonQesSignedPrescriptions: boolean;
  key: { uid: string; prefix: string; createdAt: number; lastUsedAt: number | null } | null;
};

/**
 * The organisation's telemedicine providers: connecting one (its Management key shown once), each
 * provider's name and identifier (editable), its key (prefix, last use, rotate, disconnect) and its
 * non-QES setting (what the doctor-signing rule reads).
 */
export function TelemedicineProviders() {
  const t = useTranslations("admin.telemedicine");
  const trpc = useTRPC();
  const providers = useQuery(trpc.admin.telemedicineProviders.list.queryOptions());
  return (
    <div className="space-y-10">
      <ConnectForm />
      <section aria-labelledby="providers-heading">
        <h2 id="providers-heading" className="text-lg font-semibold text-slate-900">
          {t("connectedHeading")}
        </h2>
        <div className="mt-3">
          <QueryView
            query={providers}
            loadingLabel={t("loading")}
            isEmpty={(data) => data.length === 0}
            empty={<EmptyState title={t("emptyTitle")}>{t("emptyHint")}</EmptyState>}
          >
            {(data) => (
              <ul className="space-y-4">
                {data.map((provider) => (
                  <li key={provider.uid}>
                    <ProviderCard provider={provider} />
                  </li>
                ))}
              </ul>
            )}
          </QueryView>
        </div>
      </section>
    </div>
  );
}

function ConnectForm() {
  const t = useTranslations("admin.telemedicine");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const permissions = useQuery(trpc.admin.telemedicineProviders.keyPermissions.queryOptions());
  const form = useZodForm(connectProviderInput, { displayName: "", identifier: "" });
  const connect = useMutation(trpc.admin.telemedicineProviders.connect.mutationOptions());
  const submit = submitWith(form, connect.mutateAsync, async () => {
    form.reset();
    await queryClient.invalidateQueries({ queryKey: trpc.admin.telemedicineProviders.list.pathKey() });
  });
  return (
    <section aria-labelledby="connect-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id="connect-heading" className="text-lg font-semibold text-slate-900">
        {t("connectHeading")}
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {t.rich("connectIntro", {
          permissions: () => (permissions.data ? <span className="font-mono text-xs wrap-anywhere">{permissions.data.join(", ")}</span> : "…"),
        })}
      </p>
      <form onSubmit={submit} noValidate className="mt-5 space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <Field form={form} name="displayName" label={t("providerName")} maxLength={200} />
          <Field form={form} name="identifier" label={t("identifier")} maxLength={100} hint={t("identifierHint")} />
        </div>
        <FormError form={form} />
        <SubmitButton form={form}>{t("connect")}</SubmitButton>
      </form>
      {connect.data ? (
        <div className="mt-6">
          <SecretBox label={t("newKey")} value={connect.data.apiKey} note={t("newKeyNote", { name: connect.data.displayName })} />
        </div>
      ) : null}
    </section>
  );
}

function ProviderCard({ provider }: { provider: Provider }) {
  const t = useTranslations("admin.telemedicine");
  const edit = useTranslations("adminDoors.providerIdentity");
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  return (
    <section aria-labelledby={`provider-${provider.uid}`} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <div className="min-w-0">
          <h3 id={`provider-${provider.uid}`} className="text-lg font-semibold text-slate-900 wrap-anywhere">
            {provider.displayName}
          </h3>
          <p className="font-mono text-xs text-slate-500 wrap-anywhere">{provider.identifier}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {provider.key ? (
            <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800">{t("connected")}</span>
          ) : (
            <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">{t("noKey")}</span>
          )}
          {editing ? null : (
            <Button
              tone="secondary"
              aria-label={edit("editLabel", { name: provider.displayName })}
              onClick={() => {
                setSaved(null);
                setEditing(true);
              }}
            >
              {edit("edit")}
            </Button>
          )}
        </div>
      </div>
      {saved ? (
        <div className="mt-3">
          <Notice>{saved}</Notice>
        </div>
      ) : null}
      {editing ? (
        <ProviderIdentityForm
          provider={provider}
          onDone={(text) => {
            setSaved(text);
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : null}
      <div className="mt-4 grid gap-6 lg:grid-cols-2">
        <ProviderKey provider={provider} />
        <ProviderSettings provider={provider} />
      </div>
    </section>
  );
}

/**
 * A provider's name and identifier (admin.telemedicineProviders.change): the identifier is unique in
 * the organisation (a taken one is the field's error); the hint says what a new identifier means to
 * integrators that read it from the Management API.
 */
function ProviderIdentityForm({ provider, onDone, onCancel }: { provider: Provider; onDone: (text: string) => void; onCancel: () => void }) {
  const t = useTranslations("adminDoors.providerIdentity");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(changeProviderInput, { providerUid: provider.uid, displayName: provider.displayName, identifier: provider.identifier });
  const change = useMutation(trpc.admin.telemedicineProviders.change.mutationOptions());
  const submit = submitWith(form, change.mutateAsync, async (result) => {
    await queryClient.invalidateQueries({ queryKey: trpc.admin.telemedicineProviders.list.pathKey() });
    onDone(result.changed ? t("saved", { name: result.displayName }) : t("unchanged"));
  });
  return (
    <form onSubmit={submit} noValidate aria-label={t("formLabel", { name: provider.displayName })} className="mt-4 space-y-4 rounded-lg border border-slate-200 bg-slate-50 p-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field form={form} name="displayName" label={t("name")} maxLength={200} />
        <Field form={form} name="identifier" label={t("identifier")} maxLength={100} hint={t("identifierHint")} />
      </div>
      <FormError form={form} />
      <SubmitOrCancel form={form} onCancel={onCancel}>
        {t("save")}
      </SubmitOrCancel>
    </form>
  );
}

function ProviderKey({ provider }: { provider: Provider }) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("admin.telemedicine");
  const format = useFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [disconnected, setDisconnected] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.telemedicineProviders.list.pathKey() });
  const rotate = useMutation(
    trpc.admin.telemedicineProviders.rotateKey.mutationOptions({
      onSuccess: async () => {
        setDisconnected(false);
        await refresh();
      },
    }),
  );
  const disconnect = useMutation(
    trpc.admin.telemedicineProviders.disconnect.mutationOptions({
      onSuccess: async () => {
        setDisconnected(true);
        rotate.reset();
        await refresh();
      },
    }),
  );
  const busy = rotate.isPending || disconnect.isPending;
  const error = rotate.error ?? disconnect.error;
  const name = provider.displayName;
  return (
    <div>
      <h4 className="text-sm font-medium text-slate-700">{t("apiKey")}</h4>
      {provider.key ? (
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-500">{t("key")}</dt>
          <dd className="font-mono text-slate-900">{provider.key.prefix}…</dd>
          <dt className="text-slate-500">{t("issued")}</dt>
          <dd className="text-slate-900">{format.dateTime(provider.key.createdAt)}</dd>
          <dt className="text-slate-500">{t("lastUsed")}</dt>
          <dd className="text-slate-900">{format.dateTime(provider.key.lastUsedAt, t("never"))}</dd>
        </dl>
      ) : (
        <p className="mt-2 text-sm text-slate-600">{t("noActiveKey")}</p>
      )}
      <div className="mt-3 space-y-3">
        {disconnected ? <Notice>{t("disconnected")}</Notice> : null}
        {error ? <ErrorState message={errorMessage(error)} /> : null}
        <div className="flex flex-wrap gap-2">
          {provider.key ? (
            <>
              <ConfirmButton
                buttonTone="secondary"
                buttonLabel={t("rotateLabel", { name })}
                disabled={busy}
                title={t("rotateTitle", { name })}
                confirmLabel={t("confirmRotate")}
                pendingLabel={t("rotating")}
                onConfirm={() => rotate.mutateAsync({ providerUid: provider.uid })}
                consequence={<p>{t("rotateConsequence")}</p>}
              >
                {t("rotate")}
              </ConfirmButton>
              <ConfirmButton
                buttonLabel={t("disconnectLabel", { name })}
                disabled={busy}
                title={t("disconnectTitle", { name })}
                confirmLabel={t("confirmDisconnect")}
                pendingLabel={t("disconnecting")}
                onConfirm={() => disconnect.mutateAsync({ providerUid: provider.uid })}
                consequence={<p>{t("disconnectConsequence")}</p>}
              >
                {t("disconnect")}
              </ConfirmButton>
            </>
          ) : (
            <Button tone="secondary" disabled={busy} onClick={() => rotate.mutate({ providerUid: provider.uid })}>
              {t("issueKey")}
            </Button>
          )}
        </div>
        {rotate.data ? <SecretBox label={t("newKeyFor", { name })} value={rotate.data.apiKey} note={t("newKeyForNote")} /> : null}
      </div>
    </div>
  );
}

function ProviderSettings({ provider }: { provider: Provider }) {
  const t = useTranslations("admin.telemedicine");
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(saveProviderSettingsInput, { providerUid: provider.uid, allowNonQesSignedPrescriptions: provider.allowNonQesSignedPrescriptions });
  const [saved, setSaved] = useState(false);
  const save = useMutation(trpc.admin.telemedicineProviders.saveSettings.mutationOptions());
  const submit = submitWith(
    form,
    (values) => {
      setSaved(false);
      return save.mutateAsync(values);
    },
    async () => {
      setSaved(true);
      // Not awaited: the button is free again as soon as the save is done.
      void queryClient.invalidateQueries({ queryKey: trpc.admin.telemedicineProviders.list.pathKey() });
    },
  );
  const checkboxId = `non-qes-${provider.uid}`;
  return (
    <form className="space-y-4" aria-label={t("settingsOf", { name: provider.displayName })} onSubmit={submit} noValidate>
      <h4 className="text-sm font-medium text-slate-700">{t("settings")}</h4>
      <div className="flex items-start gap-3">
        <input
          id={checkboxId}
          type="checkbox"
          {...form.register("allowNonQesSignedPrescriptions", { onChange: () => setSaved(false) })}
          aria-describedby={`${checkboxId}-hint`}
          className="mt-0.5 size-4 rounded border-slate-300 text-brand-700 focus:ring-brand-100"
        />
        <div>
          <label htmlFor={checkboxId} className="text-sm font-medium text-slate-900">
            {t("allowNonQes")}
          </label>
          <p id={`${checkboxId}-hint`} className="text-xs text-slate-500">
            {t("allowNonQesHint")}
          </p>
        </div>
      </div>
      <FormError form={form} />
      {saved ? <Notice>{t("saved")}</Notice> : null}
      <SubmitButton form={form}>{t("save")}</SubmitButton>
    </form>
  );
}
