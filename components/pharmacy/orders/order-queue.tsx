"use client";

import Link from "next/link";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import type { inferRouterOutputs } from "@trpc/server";
import { SelectField, TextField } from "@/components/ui/controls";
import { DataTable, type Column } from "@/components/ui/data-table";
import { LIST_PAGE_SIZE } from "@/components/ui/list-page";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/query-view";
import { useListSearch } from "@/components/ui/use-list-search";
import { useUrlQuery, type UrlUpdates } from "@/components/ui/use-url-state";
import { EmptyState, Notice } from "@/components/ui/states";
import { fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { PHARMACY_ORDER_STATUSES, type PharmacyOrderStatus } from "@/server/domain/pharmacy-orders/statuses";
import type { AppRouter } from "@/server/trpc/router";
import { dateInputToUnix, useFormat } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { useStatusLabel } from "@/components/ui/status";
import { BulkStatusChange, type BulkOutcome } from "./bulk-status-change";
import { useDeliveryTypeLabel } from "./delivery-type";

type Queue = inferRouterOutputs<AppRouter>["pharmacy"]["orders"]["list"];
type QueueOrder = Queue["items"][number];

const PAGE_SIZE = LIST_PAGE_SIZE;
/** New orders appear without a reload. */
const QUEUE_REFRESH_MS = 10_000;

const isStatus = (value: string | undefined): value is PharmacyOrderStatus => PHARMACY_ORDER_STATUSES.includes(value as PharmacyOrderStatus);

/**
 * The pharmacy's order queue. Its filters, status tab, search and page live in the query string
 * (`?status=on-hold&q=…&from=2026-01-01&to=…&pharmacy=…&page=2`): the home page's links open it
 * filtered, and reload and back keep what the pharmacist chose.
 */
export function OrderQueue() {
  const t = useTranslations("pharmacy.queue");
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const url = useUrlQuery();
  const { text: searchText, setText: setSearchText, search, page, setPage } = useListSearch();
  const statusParam = url.get("status");
  const status = isStatus(statusParam) ? statusParam : undefined;
  const fromDay = url.get("from") ?? "";
  const toDay = url.get("to") ?? "";
  const pharmacyUid = url.get("pharmacy") ?? "";
  // The selected orders with their status when selected (the bulk confirmation names completed ones).
  const [selected, setSelected] = useState<Map<string, string>>(new Map());
  const [bulkOutcome, setBulkOutcome] = useState<BulkOutcome | null>(null);
  // A new filter starts at the first page with nothing selected (whether chosen here, by back or by a link).
  const filter = (updates: UrlUpdates) => url.set({ ...updates, page: undefined });
  const filterKey = [status, search, fromDay, toDay, pharmacyUid].join("\u0000");
  const [shownFilter, setShownFilter] = useState(filterKey);
  if (shownFilter !== filterKey) {
    setShownFilter(filterKey);
    setSelected(new Map());
  }

  const pharmacies = useQuery(trpc.pharmacy.pharmacies.list.queryOptions());
  const input = {
    pharmacyUid: pharmacyUid || undefined,
    status,
    search,
    from: dateInputToUnix(fromDay, "start"),
    to: dateInputToUnix(toDay, "end"),
    page,
    limit: PAGE_SIZE,
  };
  const list = useQuery(trpc.pharmacy.orders.list.queryOptions(input, { refetchInterval: QUEUE_REFRESH_MS, placeholderData: keepPreviousData }));
  const data = list.data;
  const filtered = Boolean(search || status || fromDay || toDay);

  return (
    <div className="space-y-4">
      <div className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-4">
        <TextField label={t("search")} type="search" value={searchText} onChange={(e) => setSearchText(e.target.value)} placeholder={t("searchPlaceholder")} maxLength={100} />
        <TextField label={t("from")} type="date" value={fromDay} onChange={(e) => filter({ from: e.target.value })} />
        <TextField label={t("to")} type="date" value={toDay} onChange={(e) => filter({ to: e.target.value })} errors={fieldErrors(list.error, "to")} />
        {(pharmacies.data?.length ?? 0) > 1 ? (
          <SelectField label={t("pharmacy")} value={pharmacyUid} onChange={(e) => filter({ pharmacy: e.target.value })}>
            <option value="">{t("allPharmacies")}</option>
            {pharmacies.data!.map((p) => (
              <option key={p.uid} value={p.uid}>
                {p.displayName}
              </option>
            ))}
          </SelectField>
        ) : null}
      </div>

      <nav aria-label={t("statusTabs")} className="flex flex-wrap gap-2">
        <StatusTab label={t("all")} count={data?.allCount} current={status === undefined} onClick={() => filter({ status: undefined })} />
        {PHARMACY_ORDER_STATUSES.map((s) => (
          <StatusTab key={s} label={statusLabel("pharmacyOrder", s)} count={data?.statusCounts[s]} current={status === s} onClick={() => filter({ status: s })} />
        ))}
      </nav>

      {selected.size > 0 ? (
        <BulkStatusChange
          pharmacyUid={pharmacyUid || undefined}
          selected={selected}
          onDone={(outcome) => {
            setBulkOutcome(outcome);
            setSelected(new Map());
            void queryClient.invalidateQueries({ queryKey: trpc.pharmacy.orders.pathKey() });
          }}
        />
      ) : null}
      {bulkOutcome ? (
        <Notice tone={bulkOutcome.refused.length ? "warning" : "success"}>
          {t("bulkOutcome", {
            changed: bulkOutcome.changed,
            unchanged: bulkOutcome.unchanged,
            refused: bulkOutcome.refused.length,
            reasons: bulkOutcome.refused.map((r) => r.message).join("; "),
          })}
        </Notice>
      ) : null}

      <QueryView
        query={list}
        loadingLabel={t("loading")}
        isEmpty={(d) => d.items.length === 0}
        empty={<EmptyState title={filtered ? t("emptyFiltered") : t("empty")}>{filtered ? t("emptyFilteredHint") : t("emptyHint")}</EmptyState>}
      >
        {(d) => <QueueTable data={d} page={page} onPage={setPage} selected={selected} setSelected={setSelected} />}
      </QueryView>
    </div>
  );
}

function QueueTable({
  data,
  page,
  onPage,
  selected,
  setSelected,
}: {
  data: Queue;
  page: number;
  onPage: (page: number) => void;
  selected: Map<string, string>;
  setSelected: (update: (current: Map<string, string>) => Map<string, string>) => void;
}) {
  const t = useTranslations("pharmacy.queue");
  const format = useFormat();
  const deliveryTypeLabel = useDeliveryTypeLabel();
  const showPharmacy = data.pharmacyCount > 1;
  const items = data.items;
  const allOnPageSelected = items.length > 0 && items.every((i) => selected.has(i.uid));
  const select = (orders: QueueOrder[], on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      for (const order of orders) {
        if (on) next.set(order.uid, order.status);
        else next.delete(order.uid);
      }
      return next;
    });
  const columns: Column<QueueOrder>[] = [
    {
      header: t("select"),
      headerHidden: true,
      className: "md:w-10",
      cell: (order) => (
        <input type="checkbox" aria-label={t("selectOne", { name: order.name })} checked={selected.has(order.uid)} onChange={(e) => select([order], e.target.checked)} />
      ),
    },
    {
      header: t("order"),
      key: true,
      cell: (order) => (
        <>
          <Link prefetch={false} href={`/pharmacy/orders/${order.uid}`} className="font-medium text-brand-700 hover:underline">
            {order.name}
          </Link>
          {order.unreadAnswer ? <NewAnswerMarker /> : null}
          {order.shopOrderName ? <div className="text-xs font-normal text-slate-500">{order.shopOrderName}</div> : null}
        </>
      ),
    },
    {
      header: t("customer"),
      cell: (order) => (
        <>
          <div className="text-slate-900">{order.customerName}</div>
          <div className="text-xs text-slate-500">{order.city}</div>
        </>
      ),
    },
    ...(showPharmacy ? [{ header: t("pharmacy"), className: "text-slate-700", cell: (order: QueueOrder) => order.pharmacy.displayName }] : []),
    { header: t("status"), cell: (order) => <StatusBadge kind="pharmacyOrder" status={order.status} /> },
    {
      header: t("priority"),
      className: "tabular-nums",
      cell: (order) => <span className={order.priority > 0 ? "font-semibold text-red-700" : "text-slate-700"}>{order.priority}</span>,
    },
    { header: t("delivery"), className: "text-slate-700", cell: (order) => deliveryTypeLabel(order.deliveryType) },
    { header: t("items"), className: "text-slate-700", cell: (order) => <span title={order.items.join("\n")}>{order.itemCount}</span> },
    { header: t("created"), className: "whitespace-nowrap text-slate-600", cell: (order) => format.dateTime(order.createdAt) },
  ];
  return (
    <div className="space-y-2">
      <label className="inline-flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" checked={allOnPageSelected} onChange={() => select(items, !allOnPageSelected)} />
        {t("selectAll")}
      </label>
      <DataTable
        label={t("tableLabel")}
        columns={columns}
        rows={items}
        rowKey={(order) => order.uid}
        rowClassName={(order) => (selected.has(order.uid) ? "bg-brand-50/50" : "hover:bg-slate-50")}
        pager={<Pager page={page} totalPages={data.totalPages} total={data.total} noun={[t("orderNoun"), t("ordersNoun")]} onPage={onPage} />}
      />
    </div>
  );
}

/** An admin answered in an issue thread of the order (a reply or a resolution) and no pharmacist opened it since. */
export function NewAnswerMarker() {
  const t = useTranslations("pharmacy.queue");
  return (
    <span className="ml-2 inline-flex whitespace-nowrap rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900" title={t("newAnswerHint")}>
      {t("newAnswer")}
    </span>
  );
}

function StatusTab({ label, count, current, onClick }: { label: string; count: number | undefined; current: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      aria-pressed={current}
      onClick={onClick}
      className={`rounded-full border px-3 py-1 text-sm ${current ? "border-brand-700 bg-brand-700 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50"}`}
    >
      {label} <span className={`ml-1 tabular-nums ${current ? "text-white/80" : "text-slate-500"}`}>{count ?? "…"}</span>
    </button>
  );
}
