"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { inferRouterOutputs } from "@trpc/server";
import { useFormat } from "@/components/ui/format";
import { PharmacyChoice } from "@/components/pharmacy/pharmacy-choice";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { Button, SelectField, TextField } from "@/components/ui/controls";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Pager } from "@/components/ui/pager";
import { StatusBadge } from "@/components/ui/status-badge";
import { useStatusLabel } from "@/components/ui/status";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import type { AppRouter } from "@/server/trpc/router";

type Payouts = inferRouterOutputs<AppRouter>["pharmacy"]["payouts"]["list"];
type Status = "" | "projected" | "routed";

const PAGE_SIZE = 50;

/** A date input's day (YYYY-MM-DD) as Unix seconds: its first second, or with `endOfDay` its last (UTC). */
function daySeconds(day: string, endOfDay = false): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const start = Date.parse(`${day}T00:00:00Z`) / 1000;
  return Number.isNaN(start) ? undefined : endOfDay ? start + 86_399 : start;
}

export function PayoutsPage() {
  return <PharmacyChoice>{(pharmacyUid) => <PayoutsView pharmacyUid={pharmacyUid} />}</PharmacyChoice>;
}

function PayoutsView({ pharmacyUid }: { pharmacyUid: string }) {
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  const [status, setStatus] = useState<Status>("");
  const [fromDay, setFromDay] = useState("");
  const [toDay, setToDay] = useState("");
  const [page, setPage] = useState(0);
  const [searchText, setSearchText] = useState("");
  const [search, setSearch] = useState("");
  // Searching as one types, once the typing pauses.
  useEffect(() => {
    const next = searchText.trim();
    if (next === search) return;
    const timer = setTimeout(() => {
      setSearch(next);
      setPage(0);
    }, 300);
    return () => clearTimeout(timer);
  }, [searchText, search]);
  const input = {
    pharmacyUid,
    status: status || undefined,
    search: search || undefined,
    from: daySeconds(fromDay),
    to: daySeconds(toDay, true),
    page,
    limit: PAGE_SIZE,
  };
  const payouts = useQuery(trpc.pharmacy.payouts.list.queryOptions(input));
  const filtered = Boolean(status || fromDay || toDay || search);
  const filterError = (field: string) => fieldErrors(payouts.error, field);
  const anyFilterError = Boolean(filterError("from") || filterError("to"));

  return (
    <div className="space-y-6">
      <div className="grid max-w-4xl gap-4 sm:grid-cols-5">
        <TextField label="Search" type="search" placeholder="Order or route" maxLength={100} value={searchText} onChange={(e) => setSearchText(e.target.value)} />
        <SelectField
          label="Status"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as Status);
            setPage(0);
          }}
        >
          <option value="">All</option>
          <option value="projected">{statusLabel("payout", "projected")}</option>
          <option value="routed">{statusLabel("payout", "routed")}</option>
        </SelectField>
        <TextField
          label="From"
          type="date"
          value={fromDay}
          errors={filterError("from")}
          onChange={(e) => {
            setFromDay(e.target.value);
            setPage(0);
          }}
        />
        <TextField
          label="To"
          type="date"
          value={toDay}
          errors={filterError("to")}
          onChange={(e) => {
            setToDay(e.target.value);
            setPage(0);
          }}
        />
        <div className="flex items-end">
          <Button
            tone="secondary"
            disabled={!filtered && !searchText}
            onClick={() => {
              setStatus("");
              setFromDay("");
              setToDay("");
              setSearchText("");
              setSearch("");
              setPage(0);
            }}
          >
            Clear filters
          </Button>
        </div>
      </div>
      <p className="text-xs text-slate-500">Dates in UTC. Routed rows are filtered by when they were routed, projected rows by when their order was created.</p>
      {payouts.isPending ? (
        <LoadingState label="Loading payouts…" />
      ) : payouts.isError ? (
        anyFilterError ? null : <ErrorState message={errorMessage(payouts.error)} onRetry={() => void payouts.refetch()} />
      ) : (
        <PayoutsResult data={payouts.data} filtered={filtered} page={page} onPage={setPage} />
      )}
    </div>
  );
}

type PayoutRow = Payouts["items"][number];

/** The payout columns in the reader's language and formats. */
function payoutColumns(format: ReturnType<typeof useFormat>, statusLabel: ReturnType<typeof useStatusLabel>): Column<PayoutRow>[] {
  return [
  {
    header: "Pharmacy order",
    key: true,
    cell: (row) => (
      <>
        <div className="font-medium text-slate-900">{row.pharmacy_order_name ?? "—"}</div>
        <div className="font-mono text-xs text-slate-500">{row.pharmacy_order_uid}</div>
      </>
    ),
  },
  {
    header: "Component",
    cell: (row) => (
      <>
        <div className="text-slate-900">{statusLabel("payoutComponent", row.component_type)}</div>
        {row.routing_description ? <div className="text-xs text-slate-500">{row.routing_description}</div> : null}
      </>
    ),
  },
  {
    header: "Status",
    cell: (row) => (
      <>
        <StatusBadge kind="payout" status={row.status} />
        {row.review ? (
          <div className="mt-1">
            <span className="rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-800">Needs review</span>
            <div className="mt-1 text-xs text-slate-600">
              {row.review.reason ?? "Flagged for review"} · {format.dateTime(row.review.flaggedAt)}
            </div>
          </div>
        ) : null}
      </>
    ),
  },
  { header: "Amount", className: "whitespace-nowrap tabular-nums md:text-right", cell: (row) => format.money(row.amount, row.currency) },
  { header: "Order created", className: "whitespace-nowrap text-slate-600", cell: (row) => format.dateTime(row.pharmacy_order_created_at) },
  { header: "Routed", className: "whitespace-nowrap text-slate-600", cell: (row) => format.dateTime(row.routing_created_at) },
  { header: "Provider route", className: "font-mono text-xs text-slate-600", cell: (row) => row.provider_route_id ?? "—" },
];
}

function PayoutsResult({ data, filtered, page, onPage }: { data: Payouts; filtered: boolean; page: number; onPage: (page: number) => void }) {
  const format = useFormat();
  const statusLabel = useStatusLabel();
  if (data.items.length === 0 && data.total === 0) {
    return (
      <EmptyState title={filtered ? "No payouts match these filters" : "No payouts yet"}>
        {filtered ? "Try other dates, another status or another search." : "Payouts appear here when your pharmacy's orders are paid (projected) and completed (routed)."}
      </EmptyState>
    );
  }
  return (
    <div className="space-y-4">
      <section aria-label="Totals">
        <h2 className="text-sm font-semibold text-slate-900">Totals{filtered ? " (filtered)" : ""}</h2>
        <dl className="mt-2 flex flex-wrap gap-4">
          {data.totals.map((t) => (
            <div key={`${t.status}-${t.currency}`} className="min-w-44 rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm">
              <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">
                {statusLabel("payout", t.status)} · {t.currency}
              </dt>
              <dd className="mt-1 text-lg font-semibold tabular-nums text-slate-900">{format.money(t.amount, t.currency)}</dd>
              <dd className="text-xs text-slate-500">
                {t.count} row{t.count === 1 ? "" : "s"}
              </dd>
            </div>
          ))}
        </dl>
      </section>
      <DataTable
        label="Payouts"
        columns={payoutColumns(format, statusLabel)}
        rows={data.items}
        rowKey={(row, i) => `${row.pharmacy_order_uid}-${row.component_type}-${i}`}
        rowClassName={() => "align-top"}
        pager={<Pager page={page} totalPages={data.totalPages} total={data.total} noun={["row", "rows"]} onPage={onPage} />}
      />
    </div>
  );
}
