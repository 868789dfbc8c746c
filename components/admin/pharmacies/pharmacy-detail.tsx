"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/controls";
import { ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { useFormat } from "@/components/ui/format";
import { errorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { PharmacyForm } from "./pharmacy-form";

/** One pharmacy: its fields to edit, and "Test connection" of its pharmacy-system connector. */
export function PharmacyDetail({ pharmacyUid }: { pharmacyUid: string }) {
  const format = useFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pharmacy = useQuery(trpc.admin.pharmacies.get.queryOptions({ pharmacyUid }));
  const groups = useQuery(trpc.admin.pharmacyGroups.list.queryOptions());
  const [saved, setSaved] = useState(false);
  const change = useMutation(
    trpc.admin.pharmacies.change.mutationOptions({
      // Not awaited: the form is free again at once while the lists refresh.
      onSuccess: () => {
        setSaved(true);
        void queryClient.invalidateQueries({ queryKey: trpc.admin.pharmacies.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.admin.pharmacyGroups.pathKey() });
      },
    }),
  );
  const test = useMutation(trpc.admin.pharmacies.testConnection.mutationOptions());

  if (pharmacy.isPending || groups.isPending) return <LoadingState label="Loading the pharmacy…" />;
  if (pharmacy.isError) return <ErrorState message={errorMessage(pharmacy.error)} onRetry={() => pharmacy.refetch()} />;
  if (groups.isError) return <ErrorState message={errorMessage(groups.error)} onRetry={() => groups.refetch()} />;
  const p = pharmacy.data;

  return (
    <div className="space-y-8">
      <p className="text-sm">
        <Link href="/admin/pharmacies" className="text-brand-700 hover:text-brand-800">
          ← All pharmacies
        </Link>
      </p>
      <section aria-labelledby="pharmacy-heading" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="pharmacy-heading" className="text-lg font-semibold text-slate-900">
          {p.displayName}
        </h2>
        <p className="text-xs text-slate-500">
          <span className="font-mono">{p.uid}</span> · {p.userCount} {p.userCount === 1 ? "user" : "users"} · changed {format.dateTime(p.updatedAt)}
        </p>
        <div className="mt-6">
          {saved ? (
            <div className="mb-4">
              <Notice>Saved.</Notice>
            </div>
          ) : null}
          <PharmacyForm
            key={p.updatedAt}
            initial={p}
            groups={groups.data}
            submitLabel="Save"
            pending={change.isPending}
            error={change.error}
            onSubmit={(fields) => {
              setSaved(false);
              change.mutate({ ...fields, pharmacyUid });
            }}
          />
        </div>
      </section>
      <section aria-labelledby="connection-heading" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="connection-heading" className="text-lg font-semibold text-slate-900">
          Connection test
        </h2>
        <p className="mt-1 text-sm text-slate-500">
          {p.connector
            ? `Asks ${p.connector.url} for a test order, as the status check does (5 s at most). Tests the saved setting.`
            : "No pharmacy system is connected: save a connector URL first."}
        </p>
        <div className="mt-4 space-y-3">
          <Button tone="secondary" disabled={!p.connector || test.isPending} onClick={() => test.mutate({ pharmacyUid })}>
            {test.isPending ? "Testing…" : "Test connection"}
          </Button>
          {test.data ? (
            test.data.ok ? (
              <Notice>Connected. {test.data.message}</Notice>
            ) : (
              <ErrorState message={`Connection failed. ${test.data.message}`} />
            )
          ) : null}
          {test.error ? <ErrorState message={errorMessage(test.error)} /> : null}
        </div>
      </section>
    </div>
  );
}
