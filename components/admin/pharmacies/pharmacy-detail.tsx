"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/controls";
import { ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { useFormat } from "@/components/ui/format";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { PharmacyForm } from "./pharmacy-form";

/** One pharmacy: its fields to edit, and "Test connection" of its pharmacy-system connector. */
export function PharmacyDetail({ pharmacyUid }: { pharmacyUid: string }) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("admin.pharmacies.detail");
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

  if (pharmacy.isPending || groups.isPending) return <LoadingState label={t("loading")} />;
  if (pharmacy.isError) return <ErrorState message={errorMessage(pharmacy.error)} onRetry={() => pharmacy.refetch()} />;
  if (groups.isError) return <ErrorState message={errorMessage(groups.error)} onRetry={() => groups.refetch()} />;
  const p = pharmacy.data;

  return (
    <div className="min-w-0 space-y-8">
      <p className="text-sm">
        <Link prefetch={false} href="/admin/pharmacies" className="text-brand-700 hover:text-brand-800">
          ← {t("all")}
        </Link>
      </p>
      <section aria-labelledby="pharmacy-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="pharmacy-heading" className="text-lg font-semibold break-words text-slate-900">
          {p.displayName}
        </h2>
        <p className="text-xs break-words text-slate-500">
          <span className="font-mono break-all">{p.uid}</span> · {t("facts", { users: p.userCount, date: format.dateTime(p.updatedAt) })}
        </p>
        <div className="mt-6">
          {saved ? (
            <div className="mb-4">
              <Notice>{t("saved")}</Notice>
            </div>
          ) : null}
          <PharmacyForm
            key={p.updatedAt}
            initial={p}
            groups={groups.data}
            submitLabel={t("save")}
            onSubmit={(fields) => {
              setSaved(false);
              return change.mutateAsync({ ...fields, pharmacyUid });
            }}
          />
        </div>
      </section>
      <section aria-labelledby="connection-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="connection-heading" className="text-lg font-semibold text-slate-900">
          {t("connectionTest")}
        </h2>
        <p className="mt-1 text-sm break-words text-slate-500">{p.connector ? t("connectionIntro", { url: p.connector.url }) : t("noConnector")}</p>
        {p.connector && p.connector.headerNames.length > 0 ? (
          <p className="mt-1 font-mono text-xs break-words text-slate-500" aria-label={t("connectorHeadersLabel")}>
            {p.connector.headerNames.map((name) => `${name}: ••••`).join(" · ")}
          </p>
        ) : null}
        <div className="mt-4 space-y-3">
          <Button tone="secondary" disabled={!p.connector || test.isPending} onClick={() => test.mutate({ pharmacyUid })}>
            {test.isPending ? t("testing") : t("test")}
          </Button>
          {test.data ? (
            test.data.ok ? (
              <Notice>{t("connected", { message: test.data.message })}</Notice>
            ) : (
              <ErrorState message={t("failed", { message: test.data.message })} />
            )
          ) : null}
          {test.error ? <ErrorState message={errorMessage(test.error)} /> : null}
        </div>
      </section>
    </div>
  );
}
