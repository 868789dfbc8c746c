"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { DataTable, type Column } from "@/components/ui/data-table";
import { useFormat } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { useTRPC } from "@/components/trpc/react";

type Doctor = {
  uid: string;
  name: string;
  email: string | null;
  minutesToRespond: number | null;
  canSignQes: boolean;
  canSeeAllPrescriptions: boolean;
  active: boolean;
  pending: number;
  overdue: number;
};

/** The organisation's doctors by name: their rights, minutes to respond and pending requests; each links to its page. */
export function DoctorList() {
  const t = useTranslations("admin.doctors.list");
  const format = useFormat();
  const trpc = useTRPC();
  const list = useQuery(trpc.admin.doctors.list.queryOptions());
  const yesNo = (value: boolean) => (value ? t("yes") : t("no"));
  const columns: Column<Doctor>[] = [
    {
      header: t("columns.name"),
      key: true,
      cell: (d) => (
        <Link prefetch={false} href={`/admin/doctors/${d.uid}`} className="font-medium break-words text-brand-700 hover:underline">
          {d.name}
        </Link>
      ),
    },
    { header: t("columns.email"), className: "break-all", cell: (d) => d.email ?? <span className="text-slate-500">{t("none")}</span> },
    {
      header: t("columns.minutesToRespond"),
      cell: (d) => (d.minutesToRespond === null ? <span className="text-slate-500">{t("none")}</span> : t("minutes", { count: d.minutesToRespond })),
    },
    { header: t("columns.canSign"), cell: (d) => yesNo(d.canSignQes) },
    { header: t("columns.seesAll"), cell: (d) => yesNo(d.canSeeAllPrescriptions) },
    {
      header: t("columns.pending"),
      cell: (d) => (
        <>
          {format.number(d.pending)}
          {d.overdue > 0 ? (
            <span className="ml-2 inline-block rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">{t("overdue", { count: d.overdue })}</span>
          ) : null}
        </>
      ),
    },
    {
      header: t("columns.state"),
      cell: (d) =>
        d.active ? (
          <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800">{t("active")}</span>
        ) : (
          <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-800">{t("deactivated")}</span>
        ),
    },
  ];
  return (
    <QueryView
      query={list}
      loadingLabel={t("loading")}
      isEmpty={(data) => data.items.length === 0}
      empty={
        <EmptyState title={t("emptyTitle")}>
          {t.rich("emptyHint", { users: (chunks) => <Link prefetch={false} href="/admin/users" className="text-brand-700 hover:underline">{chunks}</Link> })}
        </EmptyState>
      }
    >
      {(data) => (
        <div className="space-y-2">
          <DataTable label={t("label")} columns={columns} rows={data.items} rowKey={(d) => d.uid} />
          {data.total > data.items.length ? <p className="text-xs text-slate-500">{t("capped", { shown: data.items.length, total: data.total })}</p> : null}
        </div>
      )}
    </QueryView>
  );
}
