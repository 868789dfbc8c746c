"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import type { inferRouterOutputs } from "@trpc/server";
import { dateInputToUnix, useFormat } from "@/components/ui/format";
import { PharmacyChoice } from "@/components/pharmacy/pharmacy-choice";
import { fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { Button, SelectField, TextField } from "@/components/ui/controls";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Pager } from "@/components/ui/pager";
import { StatusBadge } from "@/components/ui/status-badge";
import { useStatusLabel } from "@/components/ui/status";
import { EmptyState } from "@/components/ui/states";
import { QueryView } from "@/components/ui/query-view";
import { useListSearch } from "@/components/ui/use-list-search";
import { useUrlQuery, type UrlUpdates } from "@/components/ui/use-url-state";
import type { AppRouter } from "@/server/trpc/router";

type Payouts = inferRouterOutputs<AppRouter>["pharmacy"]["payouts"]["list"];
const STATUSES = ["projected", "routed"] as const;
type Status = (typeof STATUSES)[number];
const isStatus = (value: string | undefined): value is Status => STATUSES.includes(value as Status);

const PAGE_SIZE = 50;

export function PayoutsPage() {
  return <PharmacyChoice>{(pharmacyUid) => <PayoutsView pharmacyUid={pharmacyUid} />}</PharmacyChoice>;
}

/**
 * A pharmacy's payouts. Search, status, dates and page live in the query string
 * (`?q=…&status=routed&from=2026-01-01&to=…&page=2`): a deep link, reload and back keep them.
 */
function PayoutsView({ pharmacyUid }: { pharmacyUid: string }) {
  const t = useTranslations("pharmacy.payouts");
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  const url = useUrlQuery();
  const { text: searchText, setText: setSearchText, search, page, setPage } = useListSearch();
  const statusParam = url.get("status");
  const status = isStatus(statusParam) ? statusParam : undefined;
  const fromDay = url.get("from") ?? "";
  const toDay = url.get("to") ?? "";
  // A new filter starts at the first page.
  const filter = (updates: UrlUpdates) => url.set({ ...updates, page: undefined });
  const input = {
    pharmacyUid,
    status,
    search,
    from: dateInputToUnix(fromDay, "start"),
    to: dateInputToUnix(toDay, "end"),
    page,
    limit: PAGE_SIZE,
  };
  const payouts = useQuery(trpc.pharmacy.payouts.list.queryOptions(input, { placeholderData: keepPreviousData }));
  const filtered = Boolean(status || fromDay || toDay || search);
  const filterError = (field: string) => fieldErrors(payouts.error, field);
  const anyFilterError = Boolean(filterError("from") || filterError("to"));

  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        <TextField label={t("search")} type="search" placeholder={t("searchPlaceholder")} maxLength={100} value={searchText} onChange={(e) => setSearchText(e.target.value)} />
        <SelectField label={t("status")} value={status ?? ""} onChange={(e) => filter({ status: e.target.value })}>
          <option value="">{t("all")}</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusLabel("payout", s)}
            </option>
          ))}
        </SelectField>
        <TextField label={t("from")} type="date" value={fromDay} errors={filterError("from")} onChange={(e) => filter({ from: e.target.value })} />
        <TextField label={t("to")} type="date" value={toDay} errors={filterError("to")} onChange={(e) => filter({ to: e.target.value })} />
        <div className="flex items-end">
          <Button
            tone="secondary"
            disabled={!filtered && !searchText}
            onClick={() => {
              setSearchText("");
              url.set({ q: undefined, status: undefined, from: undefined, to: undefined, page: undefined });
            }}
          >
            {t("clear")}
          </Button>
        </div>
      </div>
      <p className="text-xs text-slate-500">{t("datesHint")}</p>
      {payouts.isError && anyFilterError ? null : (
        <QueryView
          query={payouts}
          loadingLabel={t("loading")}
          isEmpty={(data) => data.items.length === 0 && data.total === 0}
          empty={<EmptyState title={filtered ? t("emptyFiltered") : t("empty")}>{filtered ? t("emptyFilteredHint") : t("emptyHint")}</EmptyState>}
        >
          {(data) => <PayoutsResult data={data} filtered={filtered} page={page} onPage={setPage} />}
        </QueryView>
      )}
    </div>
  );
}

type PayoutRow = Payouts["items"][number];

/** The payout columns in the reader's language and formats. */
function payoutColumns(t: ReturnType<typeof useTranslations<"pharmacy.payouts">>, format: ReturnType<typeof useFormat>, statusLabel: ReturnType<typeof useStatusLabel>): Column<PayoutRow>[] {
  return [
  {
    header: t("order"),
    key: true,
    cell: (row) => (
      <>
        <div className="font-medium text-slate-900">{row.pharmacy_order_name ?? "—"}</div>
        <div className="font-mono text-xs text-slate-500">{row.pharmacy_order_uid}</div>
      </>
    ),
  },
  {
    header: t("component"),
    cell: (row) => (
      <>
        <div className="text-slate-900">{statusLabel("payoutComponent", row.component_type)}</div>
        {row.routing_description ? <div className="text-xs text-slate-500">{row.routing_description}</div> : null}
      </>
    ),
  },
  {
    header: t("status"),
    cell: (row) => (
      <>
        <StatusBadge kind="payout" status={row.status} />
        {row.review ? (
          <div className="mt-1">
            <span className="rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-800">{t("needsReview")}</span>
            <div className="mt-1 text-xs text-slate-600">
              {t("flagged", { reason: row.review.reason ?? t("flaggedNoReason"), at: format.dateTime(row.review.flaggedAt) })}
            </div>
          </div>
        ) : null}
      </>
    ),
  },
  { header: t("amount"), className: "whitespace-nowrap tabular-nums md:text-right", cell: (row) => format.money(row.amount, row.currency) },
  { header: t("orderCreated"), className: "whitespace-nowrap text-slate-600", cell: (row) => format.dateTime(row.pharmacy_order_created_at) },
  { header: t("routed"), className: "whitespace-nowrap text-slate-600", cell: (row) => format.dateTime(row.routing_created_at) },
  { header: t("providerRoute"), className: "font-mono text-xs text-slate-600", cell: (row) => row.provider_route_id ?? "—" },
];
}

function PayoutsResult({ data, filtered, page, onPage }: { data: Payouts; filtered: boolean; page: number; onPage: (page: number) => void }) {
  const t = useTranslations("pharmacy.payouts");
  const format = useFormat();
  const statusLabel = useStatusLabel();
  return (
    <div className="space-y-4">
      <section aria-label={t("totals")}>
        <h2 className="text-sm font-semibold text-slate-900">{filtered ? t("totalsFiltered") : t("totals")}</h2>
        <dl className="mt-2 flex flex-wrap gap-4">
          {data.totals.map((total) => (
            <div key={`${total.status}-${total.currency}`} className="min-w-44 rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm">
              <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">
                {statusLabel("payout", total.status)} · {total.currency}
              </dt>
              <dd className="mt-1 text-lg font-semibold tabular-nums text-slate-900">{format.money(total.amount, total.currency)}</dd>
              <dd className="text-xs text-slate-500">{t("rows", { count: total.count })}</dd>
            </div>
          ))}
        </dl>
      </section>
      <DataTable
        label={t("table")}
        columns={payoutColumns(t, format, statusLabel)}
        rows={data.items}
        rowKey={(row, i) => `${row.pharmacy_order_uid}-${row.component_type}-${i}`}
        rowClassName={() => "align-top"}
        pager={<Pager page={page} totalPages={data.totalPages} total={data.total} noun={[t("rowNoun"), t("rowsNoun")]} onPage={onPage} />}
      />
    </div>
  );
}
