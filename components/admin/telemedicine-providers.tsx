"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/controls";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { errorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";

type Provider = { uid: string; displayName: string; identifier: string; allowNonQesSignedPrescriptions: boolean };

/** The organisation's telemedicine providers and their non-QES setting (what the doctor-signing rule reads). */
export function TelemedicineProviders() {
  const trpc = useTRPC();
  const providers = useQuery(trpc.adminTelemedicineProviders.list.queryOptions());
  if (providers.isPending) return <LoadingState label="Loading telemedicine providers…" />;
  if (providers.isError) return <ErrorState message={errorMessage(providers.error)} onRetry={() => providers.refetch()} />;
  if (providers.data.length === 0) {
    return <EmptyState title="No telemedicine providers yet">Connected providers appear here with their settings.</EmptyState>;
  }
  return (
    <ul className="space-y-4">
      {providers.data.map((provider) => (
        <li key={provider.uid}>
          <ProviderSettings provider={provider} />
        </li>
      ))}
    </ul>
  );
}

function ProviderSettings({ provider }: { provider: Provider }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [allowNonQes, setAllowNonQes] = useState(provider.allowNonQesSignedPrescriptions);
  const [saved, setSaved] = useState(false);
  const save = useMutation(
    trpc.adminTelemedicineProviders.saveSettings.mutationOptions({
      onSuccess: async () => {
        setSaved(true);
        await queryClient.invalidateQueries({ queryKey: trpc.adminTelemedicineProviders.list.pathKey() });
      },
    }),
  );
  const checkboxId = `non-qes-${provider.uid}`;
  return (
    <section aria-labelledby={`provider-${provider.uid}`} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id={`provider-${provider.uid}`} className="text-lg font-semibold text-slate-900">
        {provider.displayName}
      </h2>
      <p className="font-mono text-xs text-slate-500">{provider.identifier}</p>
      <form
        className="mt-4 space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          setSaved(false);
          save.mutate({ providerUid: provider.uid, allowNonQesSignedPrescriptions: allowNonQes });
        }}
      >
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
    </section>
  );
}
