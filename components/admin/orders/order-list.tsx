"use client";

import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { SelectField, TextField } from "@/components/ui/controls";
import { Pager } from "@/components/ui/pager";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { errorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { useFormat } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { useStatusLabel } from "@/components/ui/status";
import { ORDER_STATUSES } from "@/server/trpc/routers/admin-orders.schemas";

const PAGE_SIZE = 25;

export type OrderListFilter = { search?: string; status?: string; onHold?: boolean; withoutPharmacy?: boolean };

/** The search box waits for a pause in typing before it asks the server. */
function useDebounced<T>(value: T, delayMs = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/**
 * An order's status, its hold, and what its pharmacies are doing: an order "at the pharmacy" may be
 * on hold or ready there, which its own status does not say.
 */
export function OrderStatusBadge({ status, onHold, pharmacyOrderStatuses = [] }: { status: string; onHold?: boolean; pharmacyOrderStatuses?: string[] }) {
  // One badge per distinct pharmacy status (an order of several fulfillments may have several).
  const atPharmacies = [...new Set(pharmacyOrderStatuses)];
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <StatusBadge kind="order" status={status} />
      {onHold ? <span className="inline-flex whitespace-nowrap rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">Created on hold</span> : null}
      {atPharmacies.length > 0 ? (
        <span className="inline-flex flex-wrap items-center gap-1 text-xs text-slate-500">
          pharmacy:
          {atPharmacies.map((s) => (
            <StatusBadge key={s} kind="pharmacyOrder" status={s} />
          ))}
        </span>
      ) : null}
    </span>
  );
}

/** The organisation's orders, newest first: search, filters (from the URL when the home page links here), pages. */
export function AdminOrderList({ initial }: { initial: OrderListFilter }) {
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  const [searchText, setSearchText] = useState(initial.search ?? "");
  const search = useDebounced(searchText.trim());
  // A status in the link that is not one (a hand-edited URL) is ignored rather than refused.
  const [status, setStatus] = useState(initial.status && ORDER_STATUSES.includes(initial.status) ? initial.status : "");
  const [onHold, setOnHold] = useState(Boolean(initial.onHold));
  const [withoutPharmacy, setWithoutPharmacy] = useState(Boolean(initial.withoutPharmacy));
  const [page, setPage] = useState(0);
  useEffect(() => setPage(0), [search, status, onHold, withoutPharmacy]);
  const input = {
    search: search || undefined,
    status: status || undefined,
    onHold: onHold || undefined,
    withoutPharmacy: withoutPharmacy || undefined,
    page,
    limit: PAGE_SIZE,
  };
  const list = useQuery(trpc.admin.orders.list.queryOptions(input, { placeholderData: keepPreviousData }));
  const filtered = Boolean(search || status || onHold || withoutPharmacy);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <div className="min-w-72 flex-1">
          <TextField
            label="Search"
            type="search"
            value={searchText}
            maxLength={100}
            onChange={(e) => setSearchText(e.target.value)}
            hint="Order name, external id, customer e-mail, pharmacy order name, patient name or a uid."
          />
        </div>
        <div className="w-56">
          <SelectField label="Status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any status</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel("order", s)}
              </option>
            ))}
          </SelectField>
        </div>
        <label className="flex items-center gap-2 pb-2 text-sm text-slate-700">
          <input type="checkbox" checked={onHold} onChange={(e) => setOnHold(e.target.checked)} className="size-4 rounded border-slate-300" />
          On hold only
        </label>
        <label className="flex items-center gap-2 pb-2 text-sm text-slate-700">
          <input type="checkbox" checked={withoutPharmacy} onChange={(e) => setWithoutPharmacy(e.target.checked)} className="size-4 rounded border-slate-300" />
          Without a pharmacy only
        </label>
      </div>

      {list.isPending ? <LoadingState label="Loading orders…" /> : null}
      {list.isError ? <ErrorState message={errorMessage(list.error)} onRetry={() => void list.refetch()} /> : null}
      {list.data && list.data.items.length === 0 ? (
        <EmptyState title={filtered ? "No orders match." : "No orders yet."}>
          {filtered ? "Change the search or the filters." : "Orders arrive through the Management API."}
        </EmptyState>
      ) : null}
      {list.data && list.data.items.length > 0 ? (
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-3 py-2">Order</th>
                <th scope="col" className="px-3 py-2">External id</th>
                <th scope="col" className="px-3 py-2">Customer e-mail</th>
                <th scope="col" className="px-3 py-2">Status</th>
                <th scope="col" className="px-3 py-2">Shop</th>
                <th scope="col" className="px-3 py-2 text-right">Items</th>
                <th scope="col" className="px-3 py-2">Created, last change</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {list.data.items.map((order) => (
                <tr key={order.uid} className="hover:bg-slate-50">
                  <td className="px-3 py-2 font-medium">
                    <Link href={`/admin/orders/${order.uid}`} className="text-brand-700 hover:underline">
                      {order.name}
                    </Link>
                  </td>
                  <td className="max-w-48 truncate px-3 py-2 font-mono text-xs text-slate-600" title={order.externalId}>
                    {order.externalId}
                  </td>
                  <td className="px-3 py-2 text-slate-700">{order.customerEmail ?? "—"}</td>
                  <td className="px-3 py-2">
                    <OrderStatusBadge status={order.status} onHold={order.onHold} pharmacyOrderStatuses={order.pharmacyOrderStatuses} />
                  </td>
                  <td className="px-3 py-2 text-slate-700">{order.shop ?? "—"}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{order.itemCount}</td>
                  <td className="whitespace-nowrap px-3 py-2 text-slate-600">
                    {format.dateTime(order.createdAt)}
                    {/* The latest of the order's and its pharmacy orders' changes (lastChangeAt). */}
                    <div className="text-xs text-slate-600">changed {format.dateTime(order.lastChangeAt)}</div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} totalPages={list.data.totalPages} total={list.data.total} noun={["order", "orders"]} onPage={setPage} className="border-t border-slate-200 px-4 py-3" />
        </div>
      ) : null}
    </div>
  );
}
