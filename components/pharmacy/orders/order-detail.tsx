"use client";

import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useEffect, useState } from "react";
import type { z } from "zod";
import { PdfView } from "@/components/orders/pdf-view";
import { IssueThreads } from "./issue-threads";
import { Button, SelectField, TextField } from "@/components/ui/controls";
import { Card, DetailRow } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { statusChangeConfirmation, type StatusConfirmation } from "./status-confirmation";
import { EmptyState, ErrorState, LoadingState, Notice } from "@/components/ui/states";
import { errorMessage, errorReason, fieldErrors } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import {
  CARRIERS,
  DELIVERY_TYPES,
  PHARMACY_ORDER_STATUS,
  SETTABLE_PHARMACY_ORDER_STATUSES,
  type DeliveryType,
  type SettablePharmacyOrderStatus,
} from "@/server/domain/pharmacy-orders/statuses";
import type { PortalOrderDetail } from "@/server/trpc/routers/pharmacy-orders.presenters";
import {
  addShipmentInput,
  changeStatusInput,
  clarificationInput,
  completeOrderInput,
} from "@/server/trpc/routers/pharmacy-orders.schemas";
import { DELIVERY_TYPE_LABELS } from "@/components/orders/delivery-types";
import { useFormat } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { useHistoryText, useStatusLabel } from "@/components/ui/status";

/** The order as it is now is refetched after every action, and every few seconds while the page is open. */
const DETAIL_REFRESH_MS = 15_000;

type Order = PortalOrderDetail;

/** The field messages of a zod error (the form's own check, the same schema the server uses) for one field. */
function issuesFor(error: unknown, field: string): string[] | undefined {
  if (!error || typeof error !== "object" || !("issues" in error)) return undefined;
  const messages = (error as { issues: { path: PropertyKey[]; message: string }[] }).issues
    .filter((issue) => issue.path.join(".") === field)
    .map((issue) => issue.message);
  return messages.length ? messages : undefined;
}

/** The client's check first, then the server's field errors. */
const errorsOf = (clientError: unknown, serverError: unknown, field: string) => issuesFor(clientError, field) ?? fieldErrors(serverError, field);

export function OrderDetail({ uid }: { uid: string }) {
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const historyText = useHistoryText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const detail = useQuery(trpc.pharmacy.orders.get.queryOptions({ uid }, { refetchInterval: DETAIL_REFRESH_MS, retry: (n, e) => n < 1 && !isNotFound(e) }));
  const [notice, setNotice] = useState<{ tone: "success" | "warning"; text: string } | null>(null);

  /** After an action: refetch; a lost race (CONFLICT) says so, and the page shows the order as it is now. */
  const settle = async (outcome: { ok: true; text: string } | { ok: false; error: unknown }) => {
    if (outcome.ok) setNotice({ tone: "success", text: outcome.text });
    else if (isConflict(outcome.error)) {
      setNotice({ tone: "warning", text: `${errorMessage(outcome.error)} Nothing was changed; the page now shows the current state.` });
    }
    // The issue threads too: an on-hold comment or a clarification request opens one.
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.pharmacy.orders.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.pharmacy.issueThreads.pathKey() }),
    ]);
  };

  if (detail.isPending) return <LoadingState label="Loading the order…" />;
  if (detail.isError) {
    if (isNotFound(detail.error)) {
      return (
        <div className="space-y-4">
          <ErrorState message="Order not found: it does not exist, or it is not one of your pharmacy's." />
          <Link href="/pharmacy/orders" className="text-sm font-medium text-brand-700 hover:underline">
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
      <Link href="/pharmacy/orders" className="text-sm font-medium text-brand-700 hover:underline">
        ← Orders
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <div>
          <h2 className="text-xl font-semibold text-slate-900">{order.name}</h2>
          <p className="mt-1 text-sm text-slate-600">
            {order.deliveryAddress.firstName} {order.deliveryAddress.lastName}
            {order.shopOrderName ? ` · shop order ${order.shopOrderName}` : ""} · {order.pharmacy.displayName}
          </p>
          <p className="mt-1 text-xs text-slate-500">
            Created {format.dateTime(order.createdAt)} · last change {format.dateTime(order.updatedAt)}
          </p>
        </div>
        {/* external_status is always the spec's OPEN, which says nothing about this order: not shown (docs/spec-gaps.md#issue-22-say-what-it-means). */}
        <StatusBadge kind="pharmacyOrder" status={order.status} />
      </div>

      <AnswerRead uid={order.uid} unreadAnswerAt={order.unreadAnswerAt} />
      {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card level={3} title="Items">
            <table className="min-w-full text-sm">
              <thead className="text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="py-1 pr-3">SKU</th>
                  <th scope="col" className="py-1 pr-3">PZN</th>
                  <th scope="col" className="py-1 pr-3 text-right">Quantity</th>
                  <th scope="col" className="py-1 text-right">Price paid</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {order.items.map((item) => (
                  <tr key={item.uid}>
                    <td className="py-2 pr-3 text-slate-900">{item.sku.displayName}</td>
                    <td className="py-2 pr-3 font-mono text-slate-700">{item.sku.pzn ?? "—"}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{item.quantity}</td>
                    <td className="py-2 text-right tabular-nums">{format.money(item.totalPaidAmount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>

          <div className="grid gap-6 sm:grid-cols-2">
            <Card level={3} title="Customer and delivery address">
              <Address address={order.deliveryAddress} />
              <p className="mt-2 text-sm text-slate-600">{order.patient.email ?? ""}</p>
              {order.patient.dateOfBirth ? <p className="text-sm text-slate-600">Born {order.patient.dateOfBirth}</p> : null}
            </Card>
            <Card level={3} title="Delivery">
              <dl className="space-y-1 text-sm">
                <DetailRow label="Delivery type">{DELIVERY_TYPE_LABELS[order.deliveryType] ?? order.deliveryType}</DetailRow>
                <DetailRow label="Priority">{order.priority}</DetailRow>
                {/* The spec's prepaid is 0 for an order without prescription items: shown only when something was prepaid. */}
                {order.prepaid > 0 ? <DetailRow label="Prepaid for prescription items">{format.money(order.prepaid)}</DetailRow> : null}
                <DetailRow label="Shipping costs">{order.shippingCosts ? format.money(order.shippingCosts.amount, order.shippingCosts.currency) : "—"}</DetailRow>
              </dl>
              <h4 className="mt-3 text-xs font-semibold uppercase tracking-wide text-slate-500">Shop shipping methods</h4>
              {order.shippingMethods.length === 0 ? (
                <p className="text-sm text-slate-500">None named by the shop.</p>
              ) : (
                <ul className="mt-1 space-y-1 text-sm">
                  {order.shippingMethods.map((m) => (
                    <li key={m.uid}>
                      {m.displayName} <span className="text-slate-500">({m.externalId})</span> →{" "}
                      {m.identifierForPharmacy ? <span className="font-mono">{m.identifierForPharmacy}</span> : <span className="text-amber-800">not mapped</span>}
                    </li>
                  ))}
                </ul>
              )}
            </Card>
          </div>

          <Card level={3} title="Doctor and prescription">
            <p className="text-sm text-slate-700">Doctor: {order.doctor?.displayName ?? "—"}</p>
            {order.prescriptionFilename ? (
              <div className="mt-3">
                <PrescriptionFile uid={order.uid} />
              </div>
            ) : (
              <p className="mt-1 text-sm text-slate-500">This order carries no prescription file.</p>
            )}
          </Card>

          <Card level={3} title="Shipments">
            {order.shipments.length === 0 ? (
              <p className="text-sm text-slate-500">No shipments yet.</p>
            ) : (
              <ul className="space-y-1 text-sm">
                {order.shipments.map((s) => (
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
          </Card>

          <Card level={3} title="Payouts">
            {order.payouts.length === 0 ? (
              <p className="text-sm text-slate-500">No payouts for this order.</p>
            ) : (
              <ul className="space-y-1 text-sm">
                {order.payouts.map((p, i) => (
                  <li key={i} className="flex justify-between gap-4">
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
          </Card>

          <Card level={3} title="Issue threads with the admin team">
            <IssueThreads pharmacyOrderUid={order.uid} />
          </Card>

          <Card level={3} title="History">
            <ol className="space-y-2 text-sm">
              {order.history.map((h) => (
                <li key={h.uid} className="flex flex-wrap gap-x-3 border-l-2 border-slate-200 pl-3">
                  <span className="w-40 shrink-0 text-slate-500">{format.dateTime(h.createdAt)}</span>
                  <span className="text-slate-900">
                    {historyText(h)}
                    {h.comment ? <span className="text-slate-600"> — {h.comment}</span> : null}
                  </span>
                  <span className="text-slate-500">
                    by {h.actor.displayName} {h.actor.type === "API_KEY" ? "(API key)" : h.actor.type === "USER" ? "(portal)" : ""}
                  </span>
                </li>
              ))}
            </ol>
          </Card>
        </div>

        <div className="space-y-6">
          {/* A new status from elsewhere starts the form afresh. */}
          <StatusAction key={order.status} order={order} settle={settle} />
          <CompleteAction order={order} settle={settle} />
          <ClarificationAction order={order} settle={settle} />
          <DetailsAction order={order} settle={settle} />
          <ShipmentAction order={order} settle={settle} />
        </div>
      </div>
    </div>
  );
}

/**
 * An admin's answer waited to be read (the queue's "New answer"): now that the order is open it is
 * read (markAnswerRead, up to the answer the page showed), and this visit says where it is.
 */
function AnswerRead({ uid, unreadAnswerAt }: { uid: string; unreadAnswerAt: number | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [shown, setShown] = useState(false);
  const { mutate } = useMutation(
    trpc.pharmacy.orders.markAnswerRead.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.pharmacy.orders.list.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.pharmacy.home.pathKey() }),
        ]),
    }),
  );
  useEffect(() => {
    if (unreadAnswerAt === null) return;
    setShown(true);
    mutate({ uid, seen: unreadAnswerAt });
  }, [uid, unreadAnswerAt, mutate]);
  return shown ? <Notice tone="warning">New answer from the admin team: read it under “Issue threads with the admin team” below.</Notice> : null;
}

type Settle = (outcome: { ok: true; text: string } | { ok: false; error: unknown }) => Promise<void>;

const isNotFound = (error: unknown) => error instanceof TRPCClientError && (error.data as { code?: string } | undefined)?.code === "NOT_FOUND";
const isConflict = (error: unknown) =>
  error instanceof TRPCClientError && ((error.data as { code?: string } | undefined)?.code === "CONFLICT" || errorReason(error) === "order_changed");

/** A mutation's error to show in its form, unless it was a lost race (the page-wide notice says that). */
const formError = (error: unknown) => (error && !isConflict(error) && !fieldErrorsPresent(error) ? <ErrorState message={errorMessage(error)} /> : null);
const fieldErrorsPresent = (error: unknown) =>
  error instanceof TRPCClientError && Boolean((error.data as { fieldErrors?: unknown } | undefined)?.fieldErrors);

type ChangeStatusInput = z.output<typeof changeStatusInput>;

function StatusAction({ order, settle }: { order: Order; settle: Settle }) {
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  // The select shows the order's current status, even one it cannot be set to (completed).
  const [status, setStatus] = useState<string>(order.status);
  const [comment, setComment] = useState("");
  const [clientError, setClientError] = useState<unknown>(null);
  const [confirming, setConfirming] = useState<{ input: ChangeStatusInput; confirmation: StatusConfirmation } | null>(null);
  const mutation = useMutation(
    trpc.pharmacy.orders.changeStatus.mutationOptions({
      onSuccess: async (_, input) => {
        setComment("");
        await settle({ ok: true, text: `Status changed to ${statusLabel("pharmacyOrder", input.status)}.` });
      },
      onError: (error) => settle({ ok: false, error }),
    }),
  );
  const allowed = new Set<string>(order.statusChanges);
  const final = order.statusChanges.length === 0;
  const settable = (SETTABLE_PHARMACY_ORDER_STATUSES as readonly string[]).includes(order.status);
  return (
    <Card level={3} title="Status">
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = changeStatusInput.safeParse({ uid: order.uid, status, comment: comment || null, expectedStatus: order.status });
          setClientError(parsed.success ? null : parsed.error);
          if (!parsed.success) return;
          // Leaving completed or cancelling asks first (status-confirmation.tsx); other moves go at once.
          const confirmation = statusChangeConfirmation(statusLabel, order.name, order.status, parsed.data.status);
          if (confirmation) setConfirming({ input: parsed.data, confirmation });
          else mutation.mutate(parsed.data);
        }}
      >
        <SelectField
          label="Status"
          value={status}
          disabled={final}
          onChange={(e) => setStatus(e.target.value)}
          errors={errorsOf(clientError, mutation.error, "status")}
        >
          {settable ? null : (
            <option value={order.status} disabled>
              {statusLabel("pharmacyOrder", order.status)}
            </option>
          )}
          {SETTABLE_PHARMACY_ORDER_STATUSES.map((s) => (
            <option key={s} value={s} disabled={s !== order.status && !allowed.has(s)}>
              {statusLabel("pharmacyOrder", s)}
            </option>
          ))}
        </SelectField>
        {status === PHARMACY_ORDER_STATUS.onHold && order.status !== PHARMACY_ORDER_STATUS.onHold ? (
          <TextArea label="Comment" value={comment} onChange={setComment} errors={errorsOf(clientError, mutation.error, "comment")} hint="Opens an issue thread for the admin team." />
        ) : null}
        <Button type="submit" disabled={final || mutation.isPending || status === order.status}>
          {mutation.isPending ? "Updating…" : "Update status"}
        </Button>
        {final ? <p className="text-xs text-slate-500">A cancelled order is final.</p> : null}
        <p className="text-xs text-slate-500">Completed is set by “Complete order”.</p>
        {formError(mutation.error)}
      </form>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming?.confirmation.title ?? ""}
        confirmLabel={confirming?.confirmation.confirmLabel ?? ""}
        tone={confirming?.confirmation.tone}
        onConfirm={() => confirming && mutation.mutate(confirming.input)}
        onClose={() => setConfirming(null)}
      >
        {confirming?.confirmation.consequence}
      </ConfirmDialog>
    </Card>
  );
}

function CompleteAction({ order, settle }: { order: Order; settle: Settle }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [trackingLink, setTrackingLink] = useState("");
  const [carrier, setCarrier] = useState("");
  const [clientError, setClientError] = useState<unknown>(null);
  const mutation = useMutation(
    trpc.pharmacy.orders.complete.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        setTrackingLink("");
        setCarrier("");
        await settle({ ok: true, text: "Order completed: stock reduced, payouts routed." });
      },
      onError: (error) => settle({ ok: false, error }),
    }),
  );
  if (!order.canComplete) return null;
  return (
    <Card level={3} title="Completion">
      {!open ? (
        <Button onClick={() => setOpen(true)}>Complete order</Button>
      ) : (
        <form
          aria-label="Complete the order"
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            // Carriers by their names, whatever the case typed.
            const named = CARRIERS.find((c) => c.toLowerCase() === carrier.trim().toLowerCase()) ?? carrier.trim();
            const links = trackingLink.trim() || named ? [{ trackingLink: trackingLink.trim(), carrier: named }] : [];
            const parsed = completeOrderInput.safeParse({ uid: order.uid, trackingLinks: links, expectedStatus: order.status });
            setClientError(parsed.success ? null : parsed.error);
            if (parsed.success) mutation.mutate(parsed.data);
          }}
        >
          <p className="text-sm text-slate-600">Reduces the stock of the items and routes the payouts. The tracking link is optional.</p>
          <TextField
            label="Tracking link"
            type="url"
            value={trackingLink}
            onChange={(e) => setTrackingLink(e.target.value)}
            placeholder="https://…"
            errors={errorsOf(clientError, mutation.error, "trackingLinks.0.trackingLink")}
          />
          <TextField
            label="Carrier"
            list="carriers"
            value={carrier}
            onChange={(e) => setCarrier(e.target.value)}
            placeholder={CARRIERS.join(", ")}
            errors={errorsOf(clientError, mutation.error, "trackingLinks.0.carrier")}
          />
          <datalist id="carriers">
            {CARRIERS.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
          <div className="flex gap-2">
            <Button type="submit" disabled={mutation.isPending}>
              {mutation.isPending ? "Completing…" : "Complete"}
            </Button>
            <Button tone="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
          {formError(mutation.error)}
        </form>
      )}
    </Card>
  );
}

function ClarificationAction({ order, settle }: { order: Order; settle: Settle }) {
  const trpc = useTRPC();
  const [description, setDescription] = useState("");
  const [clientError, setClientError] = useState<unknown>(null);
  const mutation = useMutation(
    trpc.pharmacy.orders.requestClarification.mutationOptions({
      onSuccess: async () => {
        setDescription("");
        await settle({ ok: true, text: "Clarification requested: the order is on hold and the admin team has the question." });
      },
      onError: (error) => settle({ ok: false, error }),
    }),
  );
  if (order.status === "cancelled") return null; // every status but cancelled (clarification.ts)
  return (
    <Card level={3} title="Clarification">
      <form
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = clarificationInput.safeParse({ uid: order.uid, description, expectedStatus: order.status });
          setClientError(parsed.success ? null : parsed.error);
          if (parsed.success) mutation.mutate(parsed.data);
        }}
      >
        <TextArea label="Question for the admin team" value={description} onChange={setDescription} errors={errorsOf(clientError, mutation.error, "description")} />
        <Button type="submit" tone="secondary" disabled={mutation.isPending}>
          Request clarification
        </Button>
        {formError(mutation.error)}
      </form>
    </Card>
  );
}

function DetailsAction({ order, settle }: { order: Order; settle: Settle }) {
  const trpc = useTRPC();
  const [priority, setPriority] = useState(String(order.priority));
  const [deliveryType, setDeliveryType] = useState<DeliveryType>(order.deliveryType as DeliveryType);
  const priorityMutation = useMutation(
    trpc.pharmacy.orders.changePriority.mutationOptions({
      onSuccess: (r) => settle({ ok: true, text: r.changed ? "Priority changed." : "The priority was already that." }),
      onError: (error) => settle({ ok: false, error }),
    }),
  );
  const deliveryMutation = useMutation(
    trpc.pharmacy.orders.changeDeliveryType.mutationOptions({
      onSuccess: (r) => settle({ ok: true, text: r.changed ? "Delivery type changed." : "The delivery type was already that." }),
      onError: (error) => settle({ ok: false, error }),
    }),
  );
  if (!order.canComplete) return null; // priority and delivery type mean nothing once the order left the queue
  return (
    <Card level={3} title="Priority and delivery">
      <form
        className="flex items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          priorityMutation.mutate({ uid: order.uid, priority: Number(priority), expectedPriority: order.priority });
        }}
      >
        <div className="flex-1">
          <TextField
            label="Priority"
            type="number"
            min={-1000}
            max={1000}
            step={1}
            value={priority}
            onChange={(e) => setPriority(e.target.value)}
            errors={fieldErrors(priorityMutation.error, "priority")}
          />
        </div>
        <Button type="submit" tone="secondary" disabled={priorityMutation.isPending}>
          Set priority
        </Button>
      </form>
      {formError(priorityMutation.error)}
      <form
        className="mt-3 flex items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          deliveryMutation.mutate({ uid: order.uid, deliveryType, expectedDeliveryType: order.deliveryType as DeliveryType, expectedStatus: order.status as SettablePharmacyOrderStatus });
        }}
      >
        <div className="flex-1">
          <SelectField label="Delivery type" value={deliveryType} onChange={(e) => setDeliveryType(e.target.value as DeliveryType)}>
            {DELIVERY_TYPES.map((t) => (
              <option key={t} value={t}>
                {DELIVERY_TYPE_LABELS[t]}
              </option>
            ))}
          </SelectField>
        </div>
        <Button type="submit" tone="secondary" disabled={deliveryMutation.isPending}>
          Set delivery type
        </Button>
      </form>
      {formError(deliveryMutation.error)}
    </Card>
  );
}

function ShipmentAction({ order, settle }: { order: Order; settle: Settle }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [trackingUrl, setTrackingUrl] = useState("");
  const [trackingNumber, setTrackingNumber] = useState("");
  const [company, setCompany] = useState("");
  const [clientError, setClientError] = useState<unknown>(null);
  const mutation = useMutation(
    trpc.pharmacy.orders.addShipment.mutationOptions({
      onSuccess: async (s) => {
        setOpen(false);
        setTrackingUrl("");
        setTrackingNumber("");
        setCompany("");
        await settle({ ok: true, text: `Shipment #${s.sequenceNumber} added.` });
      },
      onError: (error) => settle({ ok: false, error }),
    }),
  );
  if (order.status === PHARMACY_ORDER_STATUS.cancelled) return null;
  return (
    <Card level={3} title="Shipments">
      {!open ? (
        <Button tone="secondary" onClick={() => setOpen(true)}>
          Add a shipment
        </Button>
      ) : (
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            const parsed = addShipmentInput.safeParse({
              uid: order.uid,
              trackingUrl: trackingUrl.trim() || null,
              trackingNumber: trackingNumber.trim() || null,
              carrier: company || null,
              expectedStatus: order.status,
            });
            setClientError(parsed.success ? null : parsed.error);
            if (parsed.success) mutation.mutate(parsed.data);
          }}
        >
          <TextField label="Shipment tracking URL" type="url" value={trackingUrl} onChange={(e) => setTrackingUrl(e.target.value)} errors={errorsOf(clientError, mutation.error, "trackingUrl")} />
          <TextField label="Tracking number" value={trackingNumber} onChange={(e) => setTrackingNumber(e.target.value)} errors={errorsOf(clientError, mutation.error, "trackingNumber")} />
          <SelectField label="Shipping company" value={company} onChange={(e) => setCompany(e.target.value)}>
            <option value="">—</option>
            {CARRIERS.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </SelectField>
          <div className="flex gap-2">
            <Button type="submit" disabled={mutation.isPending}>
              Save shipment
            </Button>
            <Button tone="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
          {formError(mutation.error)}
        </form>
      )}
    </Card>
  );
}

function PrescriptionFile({ uid }: { uid: string }) {
  const trpc = useTRPC();
  // The signed file does not change: read once per visit.
  const file = useQuery(trpc.pharmacy.orders.prescriptionFile.queryOptions({ uid }, { staleTime: Infinity, refetchOnWindowFocus: false }));
  if (file.isPending) return <LoadingState label="Loading the prescription…" />;
  if (file.isError) return <ErrorState message={errorMessage(file.error)} onRetry={() => void file.refetch()} />;
  if (!file.data) return <EmptyState title="No prescription file." />;
  return <PdfView filename={file.data.filename} contentBase64={file.data.contentBase64} />;
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

/** A labelled multi-line input with its errors (long comments). */
function TextArea({ label, value, onChange, errors, hint }: { label: string; value: string; onChange: (value: string) => void; errors?: string[]; hint?: string }) {
  const id = `textarea-${label.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={id}
        value={value}
        rows={3}
        maxLength={5000}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${id}-errors` : undefined}
        className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-100"
      />
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
      {errors?.length ? (
        <p id={`${id}-errors`} className="mt-1 text-xs text-red-700">
          {errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}
