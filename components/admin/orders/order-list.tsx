"use client";

import { LIST_PAGE_SIZE } from "@/components/ui/list-page";
import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useTranslations } from "next-intl";
import { SelectField, TextField } from "@/components/ui/controls";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Pager } from "@/components/ui/pager";
import { QueryView } from "@/components/ui/query-view";
import { EmptyState } from "@/components/ui/states";
import { useTRPC } from "@/components/trpc/react";
import { useFormat } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { useStatusLabel } from "@/components/ui/status";
import { useListSearch } from "@/components/ui/use-list-search";
import { useUrlQuery } from "@/components/ui/use-url-state";
import type { AppRouter } from "@/server/trpc/router";
import { ORDER_STATUSES } from "@/server/trpc/routers/admin-orders.schemas";

const PAGE_SIZE = LIST_PAGE_SIZE;
type OrderEntry = inferRouterOutputs<AppRouter>["admin"]["orders"]["list"]["items"][number];

/**
 * An order's status, its hold, and what its pharmacies are doing: an order "at the pharmacy" may be
 * on hold or ready there, which its own status does not say.
 */
export function OrderStatusBadge({ status, onHold, pharmacyOrderStatuses = [] }: { status: string; onHold?: boolean; pharmacyOrderStatuses?: string[] }) {
  const t = useTranslations("admin.orders");
  // One badge per distinct pharmacy status (an order of several fulfillments may have several).
  const atPharmacies = [...new Set(pharmacyOrderStatuses)];
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <StatusBadge kind="order" status={status} />
      {onHold ? <span className="inline-flex whitespace-nowrap rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">{t("createdOnHold")}</span> : null}
      {atPharmacies.length > 0 ? (
        <span className="inline-flex flex-wrap items-center gap-1 text-xs text-slate-600">
          {t("atPharmacy")}
          {atPharmacies.map((s) => (
            <StatusBadge key={s} kind="pharmacyOrder" status={s} />
          ))}
        </span>
      ) : null}
    </span>
  );
}

/**
 * The organisation's orders, newest first. Search (`q`), page (`page`) and the filters (`status`,
 * `onHold=1`, `withoutPharmacy=1`: the home page's links use them) live in the URL.
 */
export function AdminOrderList() {
  const t = useTranslations("admin.orders");
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  const s = useListSearch();
  const query = useUrlQuery();
  // A status in the link that is not one (a hand-edited URL) is ignored rather than refused.
  const statusParam = query.get("status");
  const status = statusParam && ORDER_STATUSES.includes(statusParam) ? statusParam : "";
  const onHold = query.get("onHold") === "1";
  const withoutPharmacy = query.get("withoutPharmacy") === "1";
  const setFilter = (updates: Record<string, string | undefined>) => query.set({ ...updates, page: undefined });
  const input = {
    search: s.search,
    status: status || undefined,
    onHold: onHold || undefined,
    withoutPharmacy: withoutPharmacy || undefined,
    page: s.page,
    limit: PAGE_SIZE,
  };
  const list = useQuery(trpc.admin.orders.list.queryOptions(input, { placeholderData: keepPreviousData }));
  const filtered = Boolean(s.search || status || onHold || withoutPharmacy);
  const columns: Column<OrderEntry>[] = [
    {
      header: t("list.order"),
      key: true,
      cell: (order) => (
        <Link prefetch={false} href={`/admin/orders/${order.uid}`} className="font-medium text-brand-700 hover:underline">
          {order.name}
        </Link>
      ),
    },
    {
      header: t("list.externalId"),
      cell: (order) => (
        <span className="block font-mono text-xs text-slate-600 md:max-w-48 md:truncate" title={order.externalId}>
          {order.externalId}
        </span>
      ),
    },
    { header: t("list.customerEmail"), cell: (order) => order.customerEmail ?? "—", className: "text-slate-700" },
    { header: t("list.status"), cell: (order) => <OrderStatusBadge status={order.status} onHold={order.onHold} pharmacyOrderStatuses={order.pharmacyOrderStatuses} /> },
    { header: t("list.shop"), cell: (order) => order.shop ?? "—", className: "text-slate-700" },
    { header: t("list.items"), cell: (order) => format.number(order.itemCount), className: "md:text-right tabular-nums" },
    {
      header: t("list.createdChanged"),
      className: "md:whitespace-nowrap text-slate-600",
      cell: (order) => (
        <>
          {format.dateTime(order.createdAt)}
          {/* The latest of the order's and its pharmacy orders' changes (lastChangeAt). */}
          <div className="text-xs text-slate-600">{t("list.changed", { date: format.dateTime(order.lastChangeAt) })}</div>
        </>
      ),
    },
  ];

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <div className="w-full min-w-0 md:min-w-72 md:flex-1">
          <TextField label={t("list.search")} type="search" value={s.text} maxLength={100} onChange={(e) => s.setText(e.target.value)} hint={t("list.searchHint")} />
        </div>
        <div className="w-full sm:w-56">
          <SelectField label={t("list.status")} value={status} onChange={(e) => setFilter({ status: e.target.value })}>
            <option value="">{t("list.anyStatus")}</option>
            {ORDER_STATUSES.map((value) => (
              <option key={value} value={value}>
                {statusLabel("order", value)}
              </option>
            ))}
          </SelectField>
        </div>
        <label className="flex items-center gap-2 pb-2 text-sm text-slate-700">
          <input type="checkbox" checked={onHold} onChange={(e) => setFilter({ onHold: e.target.checked ? "1" : undefined })} className="size-4 rounded border-slate-300" />
          {t("list.onHoldOnly")}
        </label>
        <label className="flex items-center gap-2 pb-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={withoutPharmacy}
            onChange={(e) => setFilter({ withoutPharmacy: e.target.checked ? "1" : undefined })}
            className="size-4 rounded border-slate-300"
          />
          {t("list.withoutPharmacyOnly")}
        </label>
      </div>

      <QueryView
        query={list}
        loadingLabel={t("list.loading")}
        isEmpty={(d) => d.items.length === 0}
        empty={<EmptyState title={filtered ? t("list.noMatch") : t("list.none")}>{filtered ? t("list.noMatchHint") : t("list.noneHint")}</EmptyState>}
      >
        {(data) => (
          <DataTable
            label={t("list.tableLabel")}
            columns={columns}
            rows={data.items}
            rowKey={(order) => order.uid}
            pager={<Pager page={s.page} totalPages={data.totalPages} total={data.total} noun={[t("list.one"), t("list.other")]} onPage={s.setPage} />}
          />
        )}
      </QueryView>
    </div>
  );
}
