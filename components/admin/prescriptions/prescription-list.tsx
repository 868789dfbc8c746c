"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useFormat } from "@/components/ui/format";
import { errorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { SelectField, TextField } from "@/components/ui/controls";
import { useListSearch } from "@/components/ui/use-list-search";
import { Pager } from "@/components/ui/pager";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { PRESCRIPTION_STATUSES } from "@/server/domain/prescriptions/statuses";
import { StatusBadge } from "@/components/ui/status-badge";
import { useStatusLabel } from "@/components/ui/status";
import { SOURCE_LABELS } from "./format";

const PAGE_SIZE = 25;

/** Prescriptions: how many are in each status now, and the list with a status filter and search. */
export function PrescriptionList() {
  const statusLabel = useStatusLabel();
  const [status, setStatus] = useState<string>("");
  const { text: searchText, setText: setSearchText, search, page, setPage } = useListSearch();
  const pick = (next: string) => {
    setStatus(next);
    setPage(0);
  };

  return (
    <div className="space-y-6">
      <Statistics selected={status} onPick={pick} />
      <div className="flex flex-wrap items-end gap-4">
        <div className="w-full max-w-sm">
          <TextField label="Search" type="search" placeholder="Patient name or email, order name or id" value={searchText} maxLength={100} onChange={(e) => setSearchText(e.target.value)} />
        </div>
        <div className="w-56">
          <SelectField label="Status" value={status} onChange={(e) => pick(e.target.value)}>
            <option value="">All statuses</option>
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
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  const stats = useQuery(trpc.admin.prescriptions.statistics.queryOptions());
  if (stats.isPending) return <LoadingState label="Loading statistics…" />;
  if (stats.isError) return <ErrorState message={errorMessage(stats.error)} onRetry={() => void stats.refetch()} />;
  return (
    <section aria-labelledby="prescription-stats" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="prescription-stats" className="text-sm font-semibold text-slate-900">
        {stats.data.total} prescription{stats.data.total === 1 ? "" : "s"} now
      </h2>
      <ul className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-4">
        {Object.entries(stats.data.byStatus).map(([status, count]) => (
          <li key={status}>
            <button
              type="button"
              aria-pressed={selected === status}
              aria-label={`Show ${statusLabel("prescription", status)} (${count})`}
              onClick={() => onPick(selected === status ? "" : status)}
              className={`w-full rounded-lg border px-3 py-2 text-left hover:bg-slate-50 ${selected === status ? "border-brand-600 ring-2 ring-brand-100" : "border-slate-200"}`}
            >
              <span className="block text-xl font-semibold tabular-nums text-slate-900">{count}</span>
              <span className="block break-words text-xs text-slate-600">{statusLabel("prescription", status)}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Table({ status, search, page, onPage }: { status: string; search: string | undefined; page: number; onPage: (page: number) => void }) {
  const format = useFormat();
  const trpc = useTRPC();
  const list = useQuery(trpc.admin.prescriptions.list.queryOptions({ status: status || undefined, search, page, limit: PAGE_SIZE }));
  if (list.isPending) return <LoadingState label="Loading prescriptions…" />;
  if (list.isError) return <ErrorState message={errorMessage(list.error)} onRetry={() => void list.refetch()} />;
  if (list.data.items.length === 0) {
    return (
      <EmptyState title={search || status ? "No prescription matches" : "No prescriptions yet"}>
        {search || status ? "Try another search or status." : "Prescriptions appear here as orders bring them in."}
      </EmptyState>
    );
  }
  return (
    <>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="px-3 py-3">Patient</th>
              <th scope="col" className="px-3 py-3">Status</th>
              <th scope="col" className="px-3 py-3">Order</th>
              <th scope="col" className="px-3 py-3">Doctor</th>
              <th scope="col" className="px-3 py-3">Source</th>
              <th scope="col" className="px-3 py-3">Lines</th>
              <th scope="col" className="px-3 py-3">Created</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {list.data.items.map((p) => (
              <tr key={p.uid} className="align-top">
                <td className="px-3 py-3">
                  <Link href={`/admin/prescriptions/${p.uid}`} className="font-medium text-brand-700 hover:underline">
                    {p.patient.name}
                  </Link>
                  <div className="font-mono text-xs text-slate-400">{p.uid.slice(0, 8)}</div>
                </td>
                <td className="px-3 py-3">
                  <StatusBadge kind="prescription" status={p.status} />
                </td>
                <td className="px-3 py-3">
                  {p.order ? (
                    <Link href={`/admin/orders/${p.order.uid}`} className="text-brand-700 hover:underline">
                      {p.order.name}
                    </Link>
                  ) : (
                    "—"
                  )}
                </td>
                <td className="px-3 py-3 text-slate-700">{p.doctor?.name ?? "—"}</td>
                <td className="px-3 py-3 text-slate-700">{SOURCE_LABELS[p.source] ?? p.source}</td>
                <td className="px-3 py-3 tabular-nums">{p.lineCount}</td>
                <td className="whitespace-nowrap px-3 py-3 text-slate-600">{format.dateTime(p.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={page} totalPages={list.data.totalPages} total={list.data.total} noun={["prescription", "prescriptions"]} onPage={onPage} />
    </>
  );
}
