"use client";

import Link from "next/link";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button, SelectField, TextField } from "@/components/ui/controls";
import { Pager } from "@/components/ui/pager";
import { useListSearch } from "@/components/ui/use-list-search";
import { useUrlQuery, type UrlUpdates } from "@/components/ui/use-url-state";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { errorMessage, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import type { z } from "zod";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { bulkStatusChangeConfirmation } from "./status-confirmation";
import {
  PHARMACY_ORDER_STATUS,
  PHARMACY_ORDER_STATUSES,
  SETTABLE_PHARMACY_ORDER_STATUSES,
  type PharmacyOrderStatus,
  type SettablePharmacyOrderStatus,
} from "@/server/domain/pharmacy-orders/statuses";
import { bulkChangeStatusInput } from "@/server/trpc/routers/pharmacy-orders.schemas";
import { DELIVERY_TYPE_LABELS } from "@/components/orders/delivery-types";
import { dateInputToUnix, useFormat } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { useStatusLabel } from "@/components/ui/status";

const PAGE_SIZE = 25;
/** New orders appear without a reload. */
const QUEUE_REFRESH_MS = 10_000;

const isStatus = (value: string | undefined): value is PharmacyOrderStatus => PHARMACY_ORDER_STATUSES.includes(value as PharmacyOrderStatus);

/**
 * The pharmacy's order queue. Its filters, status tab, search and page live in the query string
 * (`?status=on-hold&q=…&from=2026-01-01&to=…&pharmacy=…&page=2`): the home page's links open it
 * filtered, and reload and back keep what the pharmacist chose.
 */
export function OrderQueue() {
  const format = useFormat();
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
  const showPharmacy = (data?.pharmacyCount ?? 0) > 1;
  const pageItems = data?.items ?? [];
  const allOnPageSelected = pageItems.length > 0 && pageItems.every((i) => selected.has(i.uid));
  const toggle = (item: { uid: string; status: string }) =>
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(item.uid)) next.delete(item.uid);
      else next.set(item.uid, item.status);
      return next;
    });

  return (
    <div className="space-y-4">
      <div className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-4">
        <TextField
          label="Search"
          type="search"
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          placeholder="PO, customer, shop order"
          maxLength={100}
        />
        <TextField label="Created from" type="date" value={fromDay} onChange={(e) => filter({ from: e.target.value })} />
        <TextField label="Created to" type="date" value={toDay} onChange={(e) => filter({ to: e.target.value })} errors={fieldErrors(list.error, "to")} />
        {(pharmacies.data?.length ?? 0) > 1 ? (
          <SelectField label="Pharmacy" value={pharmacyUid} onChange={(e) => filter({ pharmacy: e.target.value })}>
            <option value="">All pharmacies</option>
            {pharmacies.data!.map((p) => (
              <option key={p.uid} value={p.uid}>
                {p.displayName}
              </option>
            ))}
          </SelectField>
        ) : null}
      </div>

      <nav aria-label="Order status" className="flex flex-wrap gap-2">
        <StatusTab label="All" count={data?.allCount} current={status === undefined} onClick={() => filter({ status: undefined })} />
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
          {bulkOutcome.changed} changed{bulkOutcome.unchanged ? `, ${bulkOutcome.unchanged} already had the status` : ""}
          {bulkOutcome.refused.length ? `, ${bulkOutcome.refused.length} refused: ${bulkOutcome.refused.map((r) => r.message).join("; ")}` : "."}
        </Notice>
      ) : null}

      {list.isPending ? (
        <LoadingState label="Loading orders…" />
      ) : list.isError && !data ? (
        <ErrorState message={errorMessage(list.error)} onRetry={() => void list.refetch()} />
      ) : data && data.items.length === 0 ? (
        <EmptyState title={search || status || fromDay || toDay ? "No orders match these filters." : "No orders yet."}>
          {search || status || fromDay || toDay ? "Change the search or the filters." : "New orders appear here as soon as they are routed to your pharmacy."}
        </EmptyState>
      ) : data ? (
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
          {list.isError ? <ErrorState message={`Could not refresh: ${errorMessage(list.error)}`} onRetry={() => void list.refetch()} /> : null}
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="w-10 px-3 py-2">
                  <input
                    type="checkbox"
                    aria-label="Select all orders on this page"
                    checked={allOnPageSelected}
                    onChange={() =>
                      setSelected((current) => {
                        const next = new Map(current);
                        for (const item of pageItems) {
                          if (allOnPageSelected) next.delete(item.uid);
                          else next.set(item.uid, item.status);
                        }
                        return next;
                      })
                    }
                  />
                </th>
                <th scope="col" className="px-3 py-2">Order</th>
                <th scope="col" className="px-3 py-2">Customer</th>
                {showPharmacy ? <th scope="col" className="px-3 py-2">Pharmacy</th> : null}
                <th scope="col" className="px-3 py-2">Status</th>
                <th scope="col" className="px-3 py-2">Priority</th>
                <th scope="col" className="px-3 py-2">Delivery</th>
                <th scope="col" className="px-3 py-2">Items</th>
                <th scope="col" className="px-3 py-2">Created</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.items.map((order) => (
                <tr key={order.uid} className={selected.has(order.uid) ? "bg-brand-50/50" : "hover:bg-slate-50"}>
                  <td className="px-3 py-2">
                    <input type="checkbox" aria-label={`Select ${order.name}`} checked={selected.has(order.uid)} onChange={() => toggle(order)} />
                  </td>
                  <td className="px-3 py-2">
                    <Link href={`/pharmacy/orders/${order.uid}`} className="font-medium text-brand-700 hover:underline">
                      {order.name}
                    </Link>
                    {order.unreadAnswer ? <NewAnswerMarker /> : null}
                    {order.shopOrderName ? <div className="text-xs text-slate-500">{order.shopOrderName}</div> : null}
                  </td>
                  <td className="px-3 py-2">
                    <div className="text-slate-900">{order.customerName}</div>
                    <div className="text-xs text-slate-500">{order.city}</div>
                  </td>
                  {showPharmacy ? <td className="px-3 py-2 text-slate-700">{order.pharmacy.displayName}</td> : null}
                  <td className="px-3 py-2">
                    <StatusBadge kind="pharmacyOrder" status={order.status} />
                  </td>
                  <td className="px-3 py-2 tabular-nums">
                    <span className={order.priority > 0 ? "font-semibold text-red-700" : "text-slate-700"}>{order.priority}</span>
                  </td>
                  <td className="px-3 py-2 text-slate-700">{DELIVERY_TYPE_LABELS[order.deliveryType ?? ""] ?? order.deliveryType ?? "—"}</td>
                  <td className="px-3 py-2 text-slate-700" title={order.items.join("\n")}>
                    {order.itemCount}
                  </td>
                  <td className="whitespace-nowrap px-3 py-2 text-slate-600">{format.dateTime(order.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} totalPages={data.totalPages} total={data.total} noun={["order", "orders"]} onPage={setPage} className="border-t border-slate-200 px-4 py-3" />
        </div>
      ) : null}
    </div>
  );
}

/** An admin answered in an issue thread of the order (a reply or a resolution) and no pharmacist opened it since. */
export function NewAnswerMarker() {
  return (
    <span className="ml-2 inline-flex whitespace-nowrap rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900" title="The admin team answered in an issue thread: open the order to read it.">
      New answer
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

/** The selected orders to one status, each on its own (bulkChangePharmacyOrderStatus); what was refused is listed. */
type BulkOutcome = { changed: number; unchanged: number; refused: { uid: string; message: string }[] };

function BulkStatusChange({ pharmacyUid, selected, onDone }: { pharmacyUid?: string; selected: Map<string, string>; onDone: (outcome: BulkOutcome) => void }) {
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  const uids = [...selected.keys()];
  const [confirming, setConfirming] = useState<BulkChangeStatusInput | null>(null);
  const [status, setStatus] = useState<SettablePharmacyOrderStatus>("in-progress");
  const [comment, setComment] = useState("");
  const [clientError, setClientError] = useState<unknown>(null);
  const mutation = useMutation(
    trpc.pharmacy.orders.bulkChangeStatus.mutationOptions({
      onSuccess(results) {
        onDone({
          changed: results.filter((r) => r.ok && r.changed).length,
          unchanged: results.filter((r) => r.ok && !r.changed).length,
          refused: results.filter((r) => !r.ok).map((r) => ({ uid: r.uid, message: "message" in r ? r.message : "" })),
        });
      },
    }),
  );
  const commentErrors = clientError ? ["A comment is required when setting an order on hold"] : fieldErrors(mutation.error, "comment");
  return (
    <form
      aria-label="Change the status of the selected orders"
      className="flex flex-wrap items-end gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4"
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = bulkChangeStatusInput.safeParse({ pharmacyUid, uids, status, comment: comment || null });
        setClientError(parsed.success ? null : parsed.error);
        // Many orders move at once: always asked first.
        if (parsed.success) setConfirming(parsed.data);
      }}
    >
      <p className="w-full text-sm font-medium text-brand-900">{uids.length} selected</p>
      <div className="w-56">
        <SelectField label="New status for the selection" value={status} onChange={(e) => setStatus(e.target.value as SettablePharmacyOrderStatus)}>
          {SETTABLE_PHARMACY_ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {statusLabel("pharmacyOrder", s)}
            </option>
          ))}
        </SelectField>
      </div>
      {status === "on-hold" ? (
        <div className="min-w-64 flex-1">
          <TextField label="On-hold reason" value={comment} onChange={(e) => setComment(e.target.value)} maxLength={5000} errors={commentErrors} />
        </div>
      ) : null}
      <Button type="submit" disabled={mutation.isPending}>
        {mutation.isPending ? "Changing…" : "Change status of selected"}
      </Button>
      {mutation.isError && !fieldErrors(mutation.error, "comment") ? <ErrorState message={errorMessage(mutation.error)} /> : null}
      <BulkConfirmation
        input={confirming}
        completedCount={confirming?.uids.filter((uid) => selected.get(uid) === PHARMACY_ORDER_STATUS.completed).length ?? 0}
        onConfirm={() => confirming && mutation.mutate(confirming)}
        onClose={() => setConfirming(null)}
      />
    </form>
  );
}

type BulkChangeStatusInput = z.output<typeof bulkChangeStatusInput>;

function BulkConfirmation({ input, completedCount, onConfirm, onClose }: { input: BulkChangeStatusInput | null; completedCount: number; onConfirm: () => void; onClose: () => void }) {
  const statusLabel = useStatusLabel();
  const confirmation = input ? bulkStatusChangeConfirmation(statusLabel, input.uids.length, completedCount, input.status) : null;
  return (
    <ConfirmDialog
      open={input !== null}
      title={confirmation?.title ?? ""}
      confirmLabel={confirmation?.confirmLabel ?? ""}
      tone={confirmation?.tone}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      {confirmation?.consequence}
    </ConfirmDialog>
  );
}
