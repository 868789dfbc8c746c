"use client";

import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useState, type ReactNode } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Button } from "@/components/ui/controls";
import { Card } from "@/components/ui/card";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { errorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { useFormat } from "@/components/ui/format";
import { PdfView } from "@/components/orders/pdf-view";
import { StatusBadge } from "@/components/ui/status-badge";
import { useHistoryText, useStatusLabel } from "@/components/ui/status";
import type { AdminOrderDetailView } from "@/server/trpc/routers/admin-orders.presenters";
import { OrderStatusBadge } from "./order-list";

type Order = AdminOrderDetailView;
type Fulfillment = Order["fulfillments"][number];

/** Pharmacy order statuses in which a fulfillment can still be cancelled (the Management API's rule, change-order.ts). */
const CANCELLABLE = ["waiting for pharmacy", "pending review", "on-hold"];

const isNotFound = (error: unknown) => error instanceof TRPCClientError && (error.data as { code?: string } | undefined)?.code === "NOT_FOUND";

export function AdminOrderDetail({ uid }: { uid: string }) {
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const detail = useQuery(trpc.admin.orders.get.queryOptions({ uid }, { refetchInterval: 30_000, retry: (n, e) => n < 1 && !isNotFound(e) }));
  const [notice, setNotice] = useState<{ tone: "success" | "warning"; text: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.orders.pathKey() });

  if (detail.isPending) return <LoadingState label="Loading the order…" />;
  if (detail.isError) {
    if (isNotFound(detail.error)) {
      return (
        <div className="space-y-4">
          <ErrorState message="Order not found: it does not exist, or it is not one of your organisation's." />
          <Link href="/admin/orders" className="text-sm font-medium text-brand-700 hover:underline">
            Back to the orders
          </Link>
        </div>
      );
    }
    return <ErrorState message={errorMessage(detail.error)} onRetry={() => void detail.refetch()} />;
  }
  const order = detail.data;

  return (
    <div className="space-y-6">
      <Link href="/admin/orders" className="text-sm font-medium text-brand-700 hover:underline">
        ← Orders
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <div>
          <h2 className="text-xl font-semibold text-slate-900">{order.name}</h2>
          <p className="mt-1 text-sm text-slate-600">
            External id <span className="font-mono">{order.externalId}</span>
            {order.shopOrder ? ` · shop ${order.shopOrder.shop}` : ""} · priority {order.priority}
          </p>
          <p className="mt-1 text-xs text-slate-500">
            Created {format.dateTime(order.createdAt)} · last change {format.dateTime(order.lastChangeAt)} · <span className="font-mono">{order.uid}</span>
          </p>
        </div>
        <div className="flex flex-col items-end gap-2">
          <OrderStatusBadge
            status={order.status}
            onHold={order.onHold}
            pharmacyOrderStatuses={order.fulfillments.flatMap((f) => (f.pharmacyOrder ? [f.pharmacyOrder.status] : []))}
          />
          <span className="text-xs text-slate-500">All fulfillments together: {statusLabel("overall", order.overallStatus)}</span>
        </div>
      </div>

      {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
      {order.onHold || order.status === "paused" ? <ReleaseHold order={order} onDone={async (n) => (setNotice(n), await refresh())} /> : null}

      <div className="grid gap-6 md:grid-cols-3">
        <Card level={3} title="Customer and patient">
          <dl className="space-y-2 text-sm">
            <Row label="Patient">{order.patient.displayName}</Row>
            <Row label="Customer e-mail">{order.customerEmail ?? "—"}</Row>
            <Row label="Patient e-mail">{order.patient.email ?? "—"}</Row>
            <Row label="Date of birth">{order.patient.dateOfBirth ?? "—"}</Row>
            <Row label="Shipping cost">{order.shippingCost ? format.money(order.shippingCost.amount, order.shippingCost.currency) : "—"}</Row>
          </dl>
        </Card>
        <Card level={3} title="Delivery address">
          <Address address={order.deliveryAddress} />
        </Card>
        <Card level={3} title="Invoice address">
          <Address address={order.invoiceAddress} />
        </Card>
      </div>

      <section aria-labelledby="fulfillments-heading" className="space-y-4">
        <h2 id="fulfillments-heading" className="text-lg font-semibold text-slate-900">
          Fulfillments
        </h2>
        {order.fulfillments.length === 0 ? <EmptyState title="This order has no fulfillments." /> : null}
        {order.fulfillments.map((f) => (
          <FulfillmentCard key={f.uid} order={order} fulfillment={f} onDone={async (n) => (setNotice(n), await refresh())} />
        ))}
      </section>

      <Card level={3} title="Prescriptions">
        {order.prescriptions.length === 0 ? (
          <p className="text-sm text-slate-500">No prescriptions: nothing in this order needs one.</p>
        ) : (
          <ul className="space-y-4">
            {order.prescriptions.map((p) => (
              <PrescriptionRow key={p.uid} orderUid={order.uid} prescription={p} />
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

type Done = (notice: { tone: "success" | "warning"; text: string }) => Promise<void>;

function ReleaseHold({ order, onDone }: { order: Order; onDone: Done }) {
  const trpc = useTRPC();
  const release = useMutation(
    trpc.admin.orders.releaseHold.mutationOptions({
      onSuccess: (r) => {
        return onDone(
          !r.released
            ? { tone: "warning", text: "The order was no longer on hold: someone released it already." }
            : r.unroutableFulfillmentUids.length > 0
              ? { tone: "warning", text: `Released. ${r.unroutableFulfillmentUids.length} fulfillment(s) found no pharmacy that can serve them now.` }
              : { tone: "success", text: `Released. ${r.pharmacyOrderUids.length} pharmacy order(s) opened.` },
        );
      },
    }),
  );
  return (
    <div className="rounded-xl border border-amber-300 bg-amber-50 p-5">
      <h3 className="text-sm font-semibold text-amber-900">Created on hold</h3>
      <p className="mt-1 text-sm text-amber-900">
        Nothing goes to a doctor&apos;s decision or a pharmacy until the order is released.
        {order.holdComment ? ` Comment: “${order.holdComment}”` : ""}
      </p>
      <ConfirmButton
        buttonTone="primary"
        className="mt-3"
        title={`Release ${order.name}?`}
        confirmLabel="Confirm release"
        pendingLabel="Releasing…"
        tone="primary"
        onConfirm={() => release.mutateAsync({ uid: order.uid })}
        consequence={<p>Its fulfillments are routed to pharmacies now, as at intake, and requests that need a prescription go to a doctor. A released order cannot be put back on hold.</p>}
      >
        Release hold
      </ConfirmButton>
    </div>
  );
}

function FulfillmentCard({ order, fulfillment: f, onDone }: { order: Order; fulfillment: Fulfillment; onDone: Done }) {
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const historyText = useHistoryText();
  const trpc = useTRPC();
  const cancel = useMutation(
    trpc.admin.orders.cancelFulfillment.mutationOptions({
      onSuccess: () => {
        return onDone({ tone: "success", text: `Fulfillment ${f.externalId} cancelled.` });
      },
    }),
  );
  const cancellable = f.status !== "CANCELLED" && (!f.pharmacyOrder || CANCELLABLE.includes(f.pharmacyOrder.status));
  const po = f.pharmacyOrder;
  return (
    <article className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-label={`Fulfillment ${f.externalId}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="text-base font-semibold text-slate-900">
            Fulfillment <span className="font-mono">{f.externalId}</span>
          </h3>
          <p className="text-xs text-slate-500">
            {f.status === "CANCELLED" ? `Cancelled ${format.dateTime(f.cancelledAt)}` : `Open since ${format.dateTime(f.createdAt)}`}
          </p>
        </div>
        {cancellable ? (
          <ConfirmButton
            title={`Cancel fulfillment ${f.externalId}?`}
            confirmLabel="Confirm cancellation"
            pendingLabel="Cancelling…"
            onConfirm={() => cancel.mutateAsync({ orderUid: order.uid, fulfillmentUid: f.uid })}
            consequence={
              <p>
                Its items{po ? `, its pharmacy order ${po.name}` : ""} and a prescription request still waiting for a doctor are cancelled with it. This cannot be
                undone.
              </p>
            }
          >
            Cancel fulfillment
          </ConfirmButton>
        ) : null}
      </div>

      <table className="mt-4 min-w-full text-sm">
        <thead className="text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="py-1 pr-3">SKU</th>
            <th scope="col" className="py-1 pr-3">PZN</th>
            <th scope="col" className="py-1 pr-3">Item status</th>
            <th scope="col" className="py-1 pr-3 text-right">Quantity</th>
            <th scope="col" className="py-1 text-right">Paid</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {f.items.map((i) => (
            <tr key={i.uid}>
              <td className="py-2 pr-3 text-slate-900">
                {i.sku.displayName}
                {i.prescriptionUid ? <span className="ml-2 rounded bg-violet-50 px-1.5 text-xs text-violet-800">Rx</span> : null}
              </td>
              <td className="py-2 pr-3 font-mono text-slate-700">{i.sku.pzn ?? "—"}</td>
              <td className="py-2 pr-3 text-slate-700">{statusLabel("item", i.status)}</td>
              <td className="py-2 pr-3 text-right tabular-nums">{i.quantity}</td>
              <td className="py-2 text-right tabular-nums">{format.money(i.totalPaid.amount, i.totalPaid.currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>

      {!po ? (
        <p className="mt-4 text-sm text-slate-600">
          {f.status === "CANCELLED" ? "No pharmacy order." : "Not at a pharmacy yet: it waits for the hold, a doctor, or a pharmacy that can serve it."}
        </p>
      ) : (
        <div className="mt-4 space-y-4 rounded-lg border border-slate-200 bg-slate-50 p-4">
          <div className="flex flex-wrap items-center gap-3">
            <h4 className="text-sm font-semibold text-slate-900">Pharmacy order {po.name}</h4>
            <StatusBadge kind="pharmacyOrder" status={po.status} />
            <span className="text-sm text-slate-600">at {po.pharmacy.displayName}</span>
            {po.openThreadUids.map((threadUid) => (
              <Link key={threadUid} href={`/admin/issues/${threadUid}`} className="text-sm font-medium text-amber-800 hover:underline">
                Open issue thread →
              </Link>
            ))}
          </div>
          <div>
            <h5 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Status history</h5>
            <ol className="mt-1 space-y-1 text-sm">
              {po.history.map((h) => (
                <li key={h.uid} className="flex flex-wrap gap-x-3 border-l-2 border-slate-300 pl-3">
                  <span className="w-40 shrink-0 text-slate-500">{format.dateTime(h.createdAt)}</span>
                  <span className="text-slate-900">
                    {historyText(h)}
                    {h.comment ? <span className="text-slate-600"> — {h.comment}</span> : null}
                  </span>
                  <span className="text-slate-500">by {h.actor}</span>
                </li>
              ))}
            </ol>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <h5 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Shipments</h5>
              {po.shipments.length === 0 ? (
                <p className="mt-1 text-sm text-slate-500">No shipments yet.</p>
              ) : (
                <ul className="mt-1 space-y-1 text-sm">
                  {po.shipments.map((s) => (
                    <li key={s.uid}>
                      #{s.sequenceNumber} {s.carrierName ?? ""} {s.trackingNumber ? <span className="font-mono">{s.trackingNumber}</span> : null}{" "}
                      {s.trackingUrl ? (
                        <a href={s.trackingUrl} target="_blank" rel="noreferrer noopener" className="text-brand-700 hover:underline">
                          Track parcel
                        </a>
                      ) : null}
                    </li>
                  ))}
                </ul>
              )}
            </div>
            <div>
              <h5 className="text-xs font-semibold uppercase tracking-wide text-slate-500">Payouts</h5>
              {po.payouts.length === 0 ? (
                <p className="mt-1 text-sm text-slate-500">No payouts for this pharmacy order.</p>
              ) : (
                <ul className="mt-1 space-y-1 text-sm">
                  {po.payouts.map((p) => (
                    <li key={p.uid} className="flex justify-between gap-4">
                      <span>
                        {statusLabel("payoutComponent", p.componentType)} · {statusLabel("payout", p.status)}
                        {p.routedAt ? ` ${format.dateTime(p.routedAt)}` : ""}
                        {p.review ? <span className="ml-2 rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-800">Needs review: {p.review}</span> : null}
                      </span>
                      <span className="tabular-nums">{format.money(p.amount, p.currency)}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </div>
        </div>
      )}
    </article>
  );
}

function PrescriptionRow({ orderUid, prescription: p }: { orderUid: string; prescription: Order["prescriptions"][number] }) {
  const format = useFormat();
  const [open, setOpen] = useState(false);
  return (
    <li className="space-y-2">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span className="font-mono text-xs text-slate-600">{p.uid}</span>
        <StatusBadge kind="prescription" status={p.status} />
        <span className="text-slate-700">{p.source === "DOCTOR" ? `Doctor: ${p.doctor ?? "not assigned"}` : p.source === "INLINE_PDF" ? "PDF sent with the order" : "Signed outside"}</span>
        {p.signedAt ? <span className="text-slate-500">signed {format.dateTime(p.signedAt)}</span> : null}
        {p.hasFile ? (
          <Button tone="secondary" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
            {open ? "Hide PDF" : "Show PDF"}
          </Button>
        ) : (
          <span className="text-slate-500">No PDF yet.</span>
        )}
      </div>
      {open ? <PrescriptionFile orderUid={orderUid} prescriptionUid={p.uid} /> : null}
    </li>
  );
}

function PrescriptionFile({ orderUid, prescriptionUid }: { orderUid: string; prescriptionUid: string }) {
  const trpc = useTRPC();
  const file = useQuery(trpc.admin.orders.prescriptionFile.queryOptions({ orderUid, prescriptionUid }, { staleTime: 60_000, refetchOnWindowFocus: false }));
  if (file.isPending) return <LoadingState label="Loading the prescription…" />;
  if (file.isError) return <ErrorState message={errorMessage(file.error)} onRetry={() => void file.refetch()} />;
  if (!file.data) return <EmptyState title="No PDF for this prescription yet." />;
  return (
    <div className="space-y-2">
      {!file.data.signed ? <Notice tone="warning">Not signed yet: this is the latest rendering.</Notice> : null}
      <PdfView filename={file.data.filename} contentBase64={file.data.contentBase64} />
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="break-words text-slate-900">{children}</dd>
    </div>
  );
}

function Address({ address }: { address: Order["deliveryAddress"] }) {
  return (
    <address className="text-sm not-italic leading-6 text-slate-800">
      {address.firstName} {address.lastName}
      <br />
      {address.street} {address.houseNumber}
      {address.additionalAddress ? (
        <>
          <br />
          {address.additionalAddress}
        </>
      ) : null}
      <br />
      {address.zipCode} {address.city}
      <br />
      {address.country}
    </address>
  );
}
