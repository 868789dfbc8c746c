"use client";

import Link from "next/link";
import { useMutation } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { DataTable } from "@/components/ui/data-table";
import { useFormat } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { useHistoryText, usePayoutReviewReason, useStatusLabel, useSystemNote } from "@/components/ui/status";
import { useTRPC } from "@/components/trpc/react";
import type { Done, Order } from "./order-detail";
import { ShipmentList } from "@/components/orders/delivery";
import { RouteToPharmacy } from "./route-to-pharmacy";

type Fulfillment = Order["fulfillments"][number];
type PharmacyOrder = NonNullable<Fulfillment["pharmacyOrder"]>;
type EarlierPharmacyOrder = Fulfillment["earlierPharmacyOrders"][number];

/** Pharmacy order statuses in which a fulfillment can still be cancelled (the Management API's rule, change-order.ts). */
const CANCELLABLE = ["waiting for pharmacy", "pending review", "on-hold"];

/**
 * A fulfillment: its items, Cancel (asked first), its pharmacy order with history, shipments and
 * payouts, the pharmacy orders a pharmacy gave back, and "Route to pharmacy" while no pharmacy has it.
 */
export function FulfillmentCard({ order, fulfillment: f, onDone }: { order: Order; fulfillment: Fulfillment; onDone: Done }) {
  const t = useTranslations("admin.orders.fulfillment");
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  const cancel = useMutation(
    trpc.admin.orders.cancelFulfillment.mutationOptions({
      onSuccess: () => onDone({ tone: "success", text: t("cancelled", { externalId: f.externalId }) }),
    }),
  );
  const cancellable = f.status !== "CANCELLED" && (!f.pharmacyOrder || CANCELLABLE.includes(f.pharmacyOrder.status));
  const po = f.pharmacyOrder;
  return (
    <article className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5" aria-label={t("label", { externalId: f.externalId })}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="text-base font-semibold break-words text-slate-900">
            {t.rich("heading", { externalId: f.externalId, mono: (chunks) => <span className="font-mono">{chunks}</span> })}
          </h3>
          <p className="text-xs text-slate-500">
            {f.status === "CANCELLED" ? t("cancelledAt", { date: format.dateTime(f.cancelledAt) }) : t("openSince", { date: format.dateTime(f.createdAt) })}
          </p>
        </div>
        {cancellable ? (
          <ConfirmButton
            title={t("cancelTitle", { externalId: f.externalId })}
            confirmLabel={t("confirmCancel")}
            pendingLabel={t("cancelling")}
            onConfirm={() => cancel.mutateAsync({ orderUid: order.uid, fulfillmentUid: f.uid })}
            consequence={<p>{po ? t("cancelConsequenceWithPharmacyOrder", { name: po.name }) : t("cancelConsequence")}</p>}
          >
            {t("cancel")}
          </ConfirmButton>
        ) : null}
      </div>

      <div className="mt-4">
        <DataTable
          label={t("itemsLabel", { externalId: f.externalId })}
          rows={f.items}
          rowKey={(i) => i.uid}
          columns={[
            {
              header: t("sku"),
              key: true,
              cell: (i) => (
                <>
                  {i.sku.displayName}
                  {i.prescriptionUid ? <span className="ml-2 rounded bg-violet-50 px-1.5 text-xs text-violet-800">{t("rx")}</span> : null}
                </>
              ),
            },
            { header: t("pzn"), cell: (i) => i.sku.pzn ?? "—", className: "font-mono text-slate-700" },
            { header: t("itemStatus"), cell: (i) => statusLabel("item", i.status), className: "text-slate-700" },
            { header: t("quantity"), cell: (i) => format.number(i.quantity), className: "md:text-right tabular-nums" },
            { header: t("paid"), cell: (i) => format.money(i.totalPaid.amount, i.totalPaid.currency), className: "md:text-right tabular-nums" },
          ]}
        />
      </div>

      {f.earlierPharmacyOrders.length > 0 ? <EarlierPharmacyOrders orders={f.earlierPharmacyOrders} /> : null}
      {po ? <PharmacyOrderPanel po={po} /> : null}
      {f.routable ? (
        <RouteToPharmacy order={order} fulfillment={f} onDone={onDone} />
      ) : !po ? (
        <p className="mt-4 text-sm text-slate-600">{f.status === "CANCELLED" ? t("noPharmacyOrder") : t("notAtPharmacy")}</p>
      ) : null}
    </article>
  );
}

function PharmacyOrderPanel({ po }: { po: PharmacyOrder }) {
  const t = useTranslations("admin.orders.fulfillment");
  const routing = useTranslations("admin.routing");
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const reviewReason = usePayoutReviewReason();
  return (
    <div className="mt-4 space-y-4 rounded-lg border border-slate-200 bg-slate-50 p-4">
      <div className="flex flex-wrap items-center gap-3">
        <h4 className="text-sm font-semibold text-slate-900">{t("pharmacyOrder", { name: po.name })}</h4>
        <StatusBadge kind="pharmacyOrder" status={po.status} />
        <span className="text-sm text-slate-600">{t("atPharmacy", { pharmacy: po.pharmacy.displayName })}</span>
        <span className="text-xs text-slate-500">{routing(`routedBy.${po.routing}`)}</span>
        {po.openThreadUids.map((threadUid) => (
          <Link prefetch={false} key={threadUid} href={`/admin/issues/${threadUid}`} className="text-sm font-medium text-amber-800 hover:underline">
            {t("openThread")} →
          </Link>
        ))}
      </div>
      <div>
        <h5 className="text-xs font-semibold uppercase tracking-wide text-slate-600">{t("history")}</h5>
        <History entries={po.history} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <h5 className="text-xs font-semibold uppercase tracking-wide text-slate-600">{t("shipments")}</h5>
          {po.shipments.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600">{t("noShipments")}</p>
          ) : (
            <ShipmentList shipments={po.shipments} trackLabel={t("track")} className="mt-1" />
          )}
        </div>
        <div>
          <h5 className="text-xs font-semibold uppercase tracking-wide text-slate-600">{t("payouts")}</h5>
          {po.payouts.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600">{t("noPayouts")}</p>
          ) : (
            <ul className="mt-1 space-y-1 text-sm">
              {po.payouts.map((p) => (
                <li key={p.uid} className="flex justify-between gap-4">
                  <span className="min-w-0">
                    {statusLabel("payoutComponent", p.componentType)} · {statusLabel("payout", p.status)}
                    {p.routedAt ? ` ${format.dateTime(p.routedAt)}` : ""}
                    {p.review ? <span className="ml-2 rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-800">{t("needsReview", { review: reviewReason(p.review) ?? p.review })}</span> : null}
                  </span>
                  <span className="tabular-nums">{format.money(p.amount, p.currency)}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </div>
  );
}

/** A pharmacy order's history entries, oldest first. */
function History({ entries }: { entries: PharmacyOrder["history"] }) {
  const t = useTranslations("admin.orders.fulfillment");
  const format = useFormat();
  const historyText = useHistoryText();
  const systemNote = useSystemNote();
  return (
    <ol className="mt-1 space-y-1 text-sm">
      {entries.map((h) => (
        <li key={h.uid} className="flex flex-wrap gap-x-3 border-l-2 border-slate-300 pl-3">
          <span className="shrink-0 text-slate-600 sm:w-40">{format.dateTime(h.createdAt)}</span>
          <span className="min-w-0 break-words text-slate-900">
            {historyText(h)}
            {h.comment ? <span className="text-slate-600"> — {systemNote("pharmacyOrder", h.comment)}</span> : null}
          </span>
          <span className="text-slate-600">{t("by", { name: h.actor.displayName ?? "", type: h.actor.type })}</span>
        </li>
      ))}
    </ol>
  );
}

/** The pharmacy orders a pharmacy gave back (cancelled), each with its history behind a disclosure. */
function EarlierPharmacyOrders({ orders }: { orders: EarlierPharmacyOrder[] }) {
  const t = useTranslations("admin.routing");
  return (
    <div className="mt-4 rounded-lg border border-slate-200 p-4">
      <h4 className="text-sm font-semibold text-slate-900">{t("earlier")}</h4>
      <ul className="mt-2 space-y-2">
        {orders.map((po) => (
          <li key={po.uid}>
            <details>
              {/* Inline content: a flex summary would lose its disclosure marker. */}
              <summary className="cursor-pointer text-sm break-words text-slate-900">
                {t("earlierEntry", { name: po.name, pharmacy: po.pharmacy.displayName })}{" "}
                <StatusBadge kind="pharmacyOrder" status={po.status} />{" "}
                <span className="text-xs text-slate-500">{t(`routedBy.${po.routing}`)}</span>
              </summary>
              <History entries={po.history} />
            </details>
          </li>
        ))}
      </ul>
    </div>
  );
}
