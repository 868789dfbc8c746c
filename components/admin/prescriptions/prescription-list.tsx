"use client";

import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useTranslations } from "next-intl";
import { useFormat } from "@/components/ui/format";
import { useTRPC } from "@/components/trpc/react";
import { SelectField, TextField } from "@/components/ui/controls";
import { DataTable, type Column } from "@/components/ui/data-table";
import { useListSearch } from "@/components/ui/use-list-search";
import { useUrlQuery } from "@/components/ui/use-url-state";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { PRESCRIPTION_STATUSES } from "@/server/domain/prescriptions/statuses";
import { StatusBadge } from "@/components/ui/status-badge";
import { useStatusLabel } from "@/components/ui/status";
import type { AppRouter } from "@/server/trpc/router";
import { useSourceLabel } from "./format";

const PAGE_SIZE = 25;
type Entry = inferRouterOutputs<AppRouter>["admin"]["prescriptions"]["list"]["items"][number];

/** Prescriptions: how many are in each status now, and the list with a status filter (`status`) and search (`q`, `page`), all in the URL. */
export function PrescriptionList() {
  const t = useTranslations("admin.prescriptions.list");
  const statusLabel = useStatusLabel();
  const query = useUrlQuery();
  const statusParam = query.get("status") ?? "";
  const status = (PRESCRIPTION_STATUSES as readonly string[]).includes(statusParam) ? statusParam : "";
  const { text: searchText, setText: setSearchText, search, page, setPage } = useListSearch();
  const pick = (next: string) => query.set({ status: next, page: undefined });

  return (
    <div className="space-y-6">
      <Statistics selected={status} onPick={pick} />
      <div className="flex flex-wrap items-end gap-4">
        <div className="w-full max-w-sm">
          <TextField label={t("search")} type="search" placeholder={t("searchPlaceholder")} value={searchText} maxLength={100} onChange={(e) => setSearchText(e.target.value)} />
        </div>
        <div className="w-full sm:w-56">
          <SelectField label={t("status")} value={status} onChange={(e) => pick(e.target.value)}>
            <option value="">{t("allStatuses")}</option>
            {PRESCRIPTION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel("prescription", s)}
              </option>
            ))}
          </SelectField>
        </div>
      </div>
      <Table status={status} search={search} page={page} onPage={setPage} />
    </div>
  );
}

function Statistics({ selected, onPick }: { selected: string; onPick: (status: string) => void }) {
  const t = useTranslations("admin.prescriptions.list");
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  const stats = useQuery(trpc.admin.prescriptions.statistics.queryOptions());
  return (
    <QueryView query={stats} loadingLabel={t("loadingStatistics")}>
      {(data) => (
        <section aria-labelledby="prescription-stats" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <h2 id="prescription-stats" className="text-sm font-semibold text-slate-900">
            {t("now", { count: data.total })}
          </h2>
          <ul className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-4">
            {Object.entries(data.byStatus).map(([status, count]) => (
              <li key={status}>
                {/* Its name is what it shows ("3 Waiting for doctor"); aria-pressed says it filters the list. */}
                <button
                  type="button"
                  aria-pressed={selected === status}
                  onClick={() => onPick(selected === status ? "" : status)}
                  className={`w-full rounded-lg border px-3 py-2 text-left hover:bg-slate-50 ${selected === status ? "border-brand-600 ring-2 ring-brand-100" : "border-slate-200"}`}
                >
                  <span className="block text-xl font-semibold tabular-nums text-slate-900">{format.number(count)}</span>
                  <span className="block break-words text-xs text-slate-600">{statusLabel("prescription", status)}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </QueryView>
  );
}

function Table({ status, search, page, onPage }: { status: string; search: string | undefined; page: number; onPage: (page: number) => void }) {
  const t = useTranslations("admin.prescriptions.list");
  const format = useFormat();
  const sourceLabel = useSourceLabel();
  const trpc = useTRPC();
  const list = useQuery(trpc.admin.prescriptions.list.queryOptions({ status: status || undefined, search, page, limit: PAGE_SIZE }, { placeholderData: keepPreviousData }));
  const columns: Column<Entry>[] = [
    {
      header: t("patient"),
      key: true,
      cell: (p) => (
        <>
          <Link prefetch={false} href={`/admin/prescriptions/${p.uid}`} className="font-medium text-brand-700 hover:underline">
            {p.patient.name}
          </Link>
          <div className="font-mono text-xs font-normal text-slate-500">{p.uid.slice(0, 8)}</div>
        </>
      ),
    },
    { header: t("status"), cell: (p) => <StatusBadge kind="prescription" status={p.status} /> },
    {
      header: t("order"),
      cell: (p) =>
        p.order ? (
          <Link prefetch={false} href={`/admin/orders/${p.order.uid}`} className="text-brand-700 hover:underline">
            {p.order.name}
          </Link>
        ) : (
          "—"
        ),
    },
    { header: t("doctor"), cell: (p) => p.doctor?.name ?? "—", className: "text-slate-700" },
    { header: t("source"), cell: (p) => sourceLabel(p.source), className: "text-slate-700" },
    { header: t("lines"), cell: (p) => format.number(p.lineCount), className: "tabular-nums" },
    { header: t("created"), cell: (p) => format.dateTime(p.createdAt), className: "md:whitespace-nowrap text-slate-600" },
  ];
  return (
    <QueryView
      query={list}
      loadingLabel={t("loading")}
      isEmpty={(d) => d.items.length === 0}
      empty={<EmptyState title={search || status ? t("noMatch") : t("none")}>{search || status ? t("noMatchHint") : t("noneHint")}</EmptyState>}
    >
      {(data) => (
        <DataTable
          label={t("tableLabel")}
          columns={columns}
          rows={data.items}
          rowKey={(p) => p.uid}
          rowClassName={() => "align-top"}
          pager={<Pager page={page} totalPages={data.totalPages} total={data.total} noun={[t("one"), t("other")]} onPage={onPage} />}
        />
      )}
    </QueryView>
  );
}
