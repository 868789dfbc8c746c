"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Field, FormError, SubmitButton, showServerErrors, useZodForm } from "@/components/ui/form";
import { connectProviderInput } from "@/server/trpc/routers/admin.schemas";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Button, SecretBox } from "@/components/ui/controls";
import { EmptyState, ErrorState, Notice } from "@/components/ui/states";
import { QueryView } from "@/components/ui/query-view";
import { useFormat } from "@/components/ui/format";
import { errorMessage } from "@/components/trpc/errors";
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
 * provider's key (prefix, last use, rotate, disconnect) and its non-QES setting (what the
 * doctor-signing rule reads).
 */
export function TelemedicineProviders() {
  const trpc = useTRPC();
  const providers = useQuery(trpc.admin.telemedicineProviders.list.queryOptions());
  return (
    <div className="space-y-10">
      <ConnectForm />
      <section aria-labelledby="providers-heading">
        <h2 id="providers-heading" className="text-lg font-semibold text-slate-900">
          Connected providers
        </h2>
        <div className="mt-3">
          <QueryView
            query={providers}
            loadingLabel="Loading telemedicine providers…"
            isEmpty={(data) => data.length === 0}
            empty={<EmptyState title="No telemedicine providers yet">Connect one above: it gets its own Management API key.</EmptyState>}
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
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const permissions = useQuery(trpc.admin.telemedicineProviders.keyPermissions.queryOptions());
  const form = useZodForm(connectProviderInput, { displayName: "", identifier: "" });
  const connect = useMutation(trpc.admin.telemedicineProviders.connect.mutationOptions());
  const submit = form.handleSubmit(async (values) => {
    try {
      await connect.mutateAsync(values);
    } catch (error) {
      showServerErrors(form, error);
      return;
    }
    form.reset();
    await queryClient.invalidateQueries({ queryKey: trpc.admin.telemedicineProviders.list.pathKey() });
  });
  return (
    <section aria-labelledby="connect-heading" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="connect-heading" className="text-lg font-semibold text-slate-900">
        Connect a provider
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        The provider gets a Management API key of its own, shown once; only its hash is stored. It may call:{" "}
        {permissions.data ? <span className="font-mono text-xs">{permissions.data.join(", ")}</span> : "…"}. It cannot change its own settings.
      </p>
      <form onSubmit={submit} noValidate className="mt-5 space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <Field form={form} name="displayName" label="Provider name" maxLength={200} />
          <Field form={form} name="identifier" label="Identifier" maxLength={100} hint="Unique in your organisation, e.g. “teleclinic”." />
        </div>
        <FormError form={form} />
        <SubmitButton form={form}>Connect provider</SubmitButton>
      </form>
      {connect.data ? (
        <div className="mt-6">
          <SecretBox
            label="New provider API key"
            value={connect.data.apiKey}
            note={`Shown only this once: hand it to “${connect.data.displayName}” now. It sends it as the X-API-Key header.`}
          />
        </div>
      ) : null}
    </section>
  );
}

function ProviderCard({ provider }: { provider: Provider }) {
  return (
    <section aria-labelledby={`provider-${provider.uid}`} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <div>
          <h3 id={`provider-${provider.uid}`} className="text-lg font-semibold text-slate-900">
            {provider.displayName}
          </h3>
          <p className="font-mono text-xs text-slate-500">{provider.identifier}</p>
        </div>
        {provider.key ? (
          <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800">Connected</span>
        ) : (
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">No API key</span>
        )}
      </div>
      <div className="mt-4 grid gap-6 lg:grid-cols-2">
        <ProviderKey provider={provider} />
        <ProviderSettings provider={provider} />
      </div>
    </section>
  );
}

function ProviderKey({ provider }: { provider: Provider }) {
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
  return (
    <div>
      <h4 className="text-sm font-medium text-slate-700">API key</h4>
      {provider.key ? (
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-500">Key</dt>
          <dd className="font-mono text-slate-900">{provider.key.prefix}…</dd>
          <dt className="text-slate-500">Issued</dt>
          <dd className="text-slate-900">{format.dateTime(provider.key.createdAt)}</dd>
          <dt className="text-slate-500">Last used</dt>
          <dd className="text-slate-900">{format.dateTime(provider.key.lastUsedAt, "Never")}</dd>
        </dl>
      ) : (
        <p className="mt-2 text-sm text-slate-600">No active key: the provider cannot call the API. Issue a key to reconnect it.</p>
      )}
      <div className="mt-3 space-y-3">
        {disconnected ? <Notice>Disconnected: its key no longer works.</Notice> : null}
        {error ? <ErrorState message={errorMessage(error)} /> : null}
        <div className="flex flex-wrap gap-2">
          {provider.key ? (
            <>
              <ConfirmButton
                buttonTone="secondary"
                buttonLabel={`Rotate the key of ${provider.displayName}`}
                disabled={busy}
                title={`Rotate the API key of ${provider.displayName}?`}
                confirmLabel="Confirm rotate"
                pendingLabel="Rotating…"
                onConfirm={() => rotate.mutateAsync({ providerUid: provider.uid })}
                consequence={<p>A new key is issued and shown once. The current key stops working at once: the provider is refused until it uses the new one.</p>}
              >
                Rotate key
              </ConfirmButton>
              <ConfirmButton
                buttonLabel={`Disconnect ${provider.displayName}`}
                disabled={busy}
                title={`Disconnect ${provider.displayName}?`}
                confirmLabel="Confirm disconnect"
                pendingLabel="Disconnecting…"
                onConfirm={() => disconnect.mutateAsync({ providerUid: provider.uid })}
                consequence={<p>The provider&apos;s key stops working at once: it cannot call the API until you issue it a new key.</p>}
              >
                Disconnect
              </ConfirmButton>
            </>
          ) : (
            <Button tone="secondary" disabled={busy} onClick={() => rotate.mutate({ providerUid: provider.uid })}>
              Issue a key
            </Button>
          )}
        </div>
        {rotate.data ? (
          <SecretBox
            label={`New API key for ${provider.displayName}`}
            value={rotate.data.apiKey}
            note="Shown only this once: hand it to the provider now. The previous key no longer works."
          />
        ) : null}
      </div>
    </div>
  );
}

function ProviderSettings({ provider }: { provider: Provider }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [allowNonQes, setAllowNonQes] = useState(provider.allowNonQesSignedPrescriptions);
  const [saved, setSaved] = useState(false);
  const save = useMutation(
    trpc.admin.telemedicineProviders.saveSettings.mutationOptions({
      onSuccess: () => {
        setSaved(true);
        // Not awaited: the button is free again as soon as the save is done.
        void queryClient.invalidateQueries({ queryKey: trpc.admin.telemedicineProviders.list.pathKey() });
      },
    }),
  );
  const checkboxId = `non-qes-${provider.uid}`;
  return (
    <form
      className="space-y-4"
      aria-label={`Settings of ${provider.displayName}`}
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        save.mutate({ providerUid: provider.uid, allowNonQesSignedPrescriptions: allowNonQes });
      }}
    >
      <h4 className="text-sm font-medium text-slate-700">Settings</h4>
      <div className="flex items-start gap-3">
        <input
          id={checkboxId}
          type="checkbox"
          checked={allowNonQes}
          onChange={(e) => {
            setAllowNonQes(e.target.checked);
            setSaved(false);
          }}
          aria-describedby={`${checkboxId}-hint`}
          className="mt-0.5 size-4 rounded border-slate-300 text-brand-700 focus:ring-brand-100"
        />
        <div>
          <label htmlFor={checkboxId} className="text-sm font-medium text-slate-900">
            Allow non-QES signed prescriptions
          </label>
          <p id={`${checkboxId}-hint`} className="text-xs text-slate-500">
            When on, doctors may approve this provider&apos;s prescription requests without a qualified electronic signature.
          </p>
        </div>
      </div>
      {save.error ? <ErrorState message={errorMessage(save.error)} /> : null}
      {saved ? <Notice>Saved.</Notice> : null}
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? "Saving…" : "Save"}
      </Button>
    </form>
  );
}
