"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { Button } from "@/components/ui/controls";
import { DataTable, type Column } from "@/components/ui/data-table";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState, ErrorState, Notice } from "@/components/ui/states";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { useFormat } from "@/components/ui/format";
import type { AppRouter } from "@/server/trpc/router";
import { NameForm } from "./name-form";
import { PharmacyForm } from "./pharmacy-form";

type Pharmacy = inferRouterOutputs<AppRouter>["admin"]["pharmacies"]["list"][number];
type Group = inferRouterOutputs<AppRouter>["admin"]["pharmacyGroups"]["list"][number];

/** The organisation's pharmacies, adding one, and its pharmacy groups. */
export function Pharmacies() {
  return (
    <div className="min-w-0 space-y-10">
      <PharmacyList />
      <AddPharmacy />
      <PharmacyGroups />
    </div>
  );
}

function useRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.admin.pharmacies.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.admin.pharmacyGroups.pathKey() });
  };
}

function PharmacyList() {
  const t = useTranslations("admin.pharmacies.list");
  const format = useFormat();
  const trpc = useTRPC();
  const pharmacies = useQuery(trpc.admin.pharmacies.list.queryOptions());
  const none = <span className="text-slate-500">—</span>;
  const columns: Column<Pharmacy>[] = [
    {
      header: t("name"),
      key: true,
      cell: (p) => (
        <>
          <Link prefetch={false} href={`/admin/pharmacies/${p.uid}`} className="font-medium text-brand-700 hover:text-brand-800">
            {p.displayName}
          </Link>
          {p.email ? <p className="text-xs font-normal break-all text-slate-500">{p.email}</p> : null}
        </>
      ),
    },
    {
      header: t("address"),
      cell: (p) => (p.address ? t("addressLine", { line1: p.address.line1, postalCode: p.address.postal_code, city: p.address.city, country: format.country(p.address.country) }) : none),
      className: "text-slate-700",
    },
    { header: t("group"), cell: (p) => p.group?.name ?? none, className: "text-slate-700" },
    { header: t("locationId"), cell: (p) => (p.locationId ? <span className="font-mono text-xs">{p.locationId}</span> : none), className: "text-slate-700" },
    {
      header: t("connector"),
      className: "text-xs text-slate-700 md:max-w-56",
      cell: (p) =>
        p.connector ? (
          <span className="block md:truncate" title={p.connector.url}>
            {p.connector.url}
          </span>
        ) : (
          <span className="text-slate-500">{t("noConnector")}</span>
        ),
    },
    { header: t("users"), cell: (p) => format.number(p.userCount), className: "text-slate-700 tabular-nums" },
  ];
  return (
    <section aria-labelledby="pharmacies-heading">
      <h2 id="pharmacies-heading" className="text-lg font-semibold text-slate-900">
        {t("title")}
      </h2>
      <div className="mt-3">
        <QueryView query={pharmacies} loadingLabel={t("loading")} isEmpty={(d) => d.length === 0} empty={<EmptyState title={t("none")}>{t("noneHint")}</EmptyState>}>
          {(data) => <DataTable label={t("title")} columns={columns} rows={data} rowKey={(p) => p.uid} rowClassName={() => "align-top"} />}
        </QueryView>
      </div>
    </section>
  );
}

function AddPharmacy() {
  const errorMessage = useErrorMessage();
  const t = useTranslations("admin.pharmacies.add");
  const trpc = useTRPC();
  const refresh = useRefresh();
  const groups = useQuery(trpc.admin.pharmacyGroups.list.queryOptions());
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<{ uid: string; displayName: string } | null>(null);
  const create = useMutation(trpc.admin.pharmacies.create.mutationOptions());
  return (
    <section aria-labelledby="add-pharmacy-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 id="add-pharmacy-heading" className="text-lg font-semibold text-slate-900">
          {t("title")}
        </h2>
        {open ? null : (
          <Button tone="secondary" onClick={() => setOpen(true)}>
            {t("open")}
          </Button>
        )}
      </div>
      {created ? (
        <div className="mt-3">
          <Notice>
            {t.rich("added", {
              name: created.displayName,
              link: (chunks) => (
                <Link prefetch={false} href={`/admin/pharmacies/${created.uid}`} className="font-medium underline">
                  {chunks}
                </Link>
              ),
            })}
          </Notice>
        </div>
      ) : null}
      {open ? (
        <div className="mt-4">
          {groups.isError ? (
            <ErrorState message={errorMessage(groups.error)} onRetry={() => groups.refetch()} />
          ) : (
            <PharmacyForm
              initial={null}
              groups={groups.data ?? []}
              submitLabel={t("submit")}
              onSubmit={async (fields) => {
                const p = await create.mutateAsync(fields);
                setCreated(p);
                setOpen(false);
                await refresh();
              }}
            />
          )}
        </div>
      ) : null}
    </section>
  );
}

function PharmacyGroups() {
  const t = useTranslations("admin.pharmacies.groups");
  const trpc = useTRPC();
  const refresh = useRefresh();
  const groups = useQuery(trpc.admin.pharmacyGroups.list.queryOptions());
  const create = useMutation(trpc.admin.pharmacyGroups.create.mutationOptions());
  return (
    <section aria-labelledby="groups-heading">
      <h2 id="groups-heading" className="text-lg font-semibold text-slate-900">
        {t("title")}
      </h2>
      <p className="mt-1 text-sm text-slate-500">{t("intro")}</p>
      <div className="mt-3 space-y-3">
        <QueryView query={groups} loadingLabel={t("loading")} isEmpty={(d) => d.length === 0} empty={<EmptyState title={t("none")}>{t("noneHint")}</EmptyState>}>
          {(data) => (
            <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm">
              {data.map((g) => (
                <li key={g.uid} className="px-4 py-3">
                  <GroupRow group={g} onRenamed={refresh} />
                </li>
              ))}
            </ul>
          )}
        </QueryView>
        <NameForm
          label={t("newName")}
          submitLabel={t("create")}
          onSubmit={async (displayName) => {
            await create.mutateAsync({ displayName });
            await refresh();
          }}
        />
      </div>
    </section>
  );
}

function GroupRow({ group, onRenamed }: { group: Group; onRenamed: () => Promise<void> }) {
  const t = useTranslations("admin.pharmacies.groups");
  const trpc = useTRPC();
  const [editing, setEditing] = useState(false);
  const rename = useMutation(trpc.admin.pharmacyGroups.rename.mutationOptions());
  if (editing) {
    return (
      <NameForm
        label={t("nameOf", { name: group.displayName })}
        initial={group.displayName}
        onCancel={() => setEditing(false)}
        onSubmit={async (displayName) => {
          await rename.mutateAsync({ groupUid: group.uid, displayName });
          setEditing(false);
          await onRenamed();
        }}
      />
    );
  }
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="min-w-0">
        <p className="font-medium break-words text-slate-900">{group.displayName}</p>
        <p className="text-xs text-slate-500">{group.pharmacies.length === 0 ? t("noPharmacies") : group.pharmacies.map((p) => p.name).join(", ")}</p>
      </div>
      <Button tone="secondary" aria-label={t("renameLabel", { name: group.displayName })} onClick={() => setEditing(true)}>
        {t("rename")}
      </Button>
    </div>
  );
}
