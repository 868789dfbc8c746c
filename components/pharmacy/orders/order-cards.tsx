"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { PdfView } from "@/components/orders/pdf-view";
import { useTRPC } from "@/components/trpc/react";
import { Card, DetailRow } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { useFormat } from "@/components/ui/format";
import { QueryView } from "@/components/ui/query-view";
import { useHistoryText, usePayoutReviewReason, useStatusLabel, useSystemNote } from "@/components/ui/status";
import { EmptyState } from "@/components/ui/states";
import { useDeliveryTypeLabel } from "./delivery-type";
import type { Order } from "./order-action-kit";
import { PostalAddress, ShipmentList } from "@/components/orders/delivery";

/** The cards of what the order is (read only): items, customer, delivery, prescription, shipments, payouts, history. */

export function ItemsCard({ order }: { order: Order }) {
  const t = useTranslations("pharmacy.order.items");
  const format = useFormat();
  return (
    <Card level={3} title={t("title")}>
      <DataTable
        label={t("title")}
        rows={order.items}
        rowKey={(item) => item.uid}
        columns={[
          { header: t("sku"), key: true, cell: (item) => item.sku.displayName },
          { header: t("pzn"), className: "font-mono text-slate-700", cell: (item) => item.sku.pzn ?? "—" },
          { header: t("quantity"), className: "tabular-nums md:text-right", cell: (item) => item.quantity },
          { header: t("pricePaid"), className: "tabular-nums md:text-right", cell: (item) => format.money(item.totalPaidAmount) },
        ]}
      />
    </Card>
  );
}

export function CustomerCard({ order }: { order: Order }) {
  const t = useTranslations("pharmacy.order.customer");
  const format = useFormat();
  return (
    <Card level={3} title={t("title")}>
      <PostalAddress address={order.deliveryAddress} />
      <p className="mt-2 text-sm text-slate-600">{order.patient.email ?? ""}</p>
      {order.patient.dateOfBirth ? <p className="text-sm text-slate-600">{t("born", { date: format.calendarDate(order.patient.dateOfBirth) })}</p> : null}
    </Card>
  );
}

export function DeliveryCard({ order }: { order: Order }) {
  const t = useTranslations("pharmacy.order.delivery");
  const format = useFormat();
  const deliveryTypeLabel = useDeliveryTypeLabel();
  return (
    <Card level={3} title={t("title")}>
      <dl className="space-y-1 text-sm">
        <DetailRow label={t("type")}>{deliveryTypeLabel(order.deliveryType)}</DetailRow>
        <DetailRow label={t("priority")}>{order.priority}</DetailRow>
        {/* The spec's prepaid is 0 for an order without prescription items: shown only when something was prepaid. */}
        {order.prepaid > 0 ? <DetailRow label={t("prepaid")}>{format.money(order.prepaid)}</DetailRow> : null}
        <DetailRow label={t("shippingCosts")}>{order.shippingCosts ? format.money(order.shippingCosts.amount, order.shippingCosts.currency) : "—"}</DetailRow>
      </dl>
      <h4 className="mt-3 text-xs font-semibold uppercase tracking-wide text-slate-500">{t("shopMethods")}</h4>
      {order.shippingMethods.length === 0 ? (
        <p className="text-sm text-slate-500">{t("noShopMethods")}</p>
      ) : (
        <ul className="mt-1 space-y-1 text-sm">
          {order.shippingMethods.map((m) => (
            <li key={m.uid}>
              {m.displayName} <span className="text-slate-500">({m.externalId})</span> →{" "}
              {m.identifierForPharmacy ? <span className="font-mono">{m.identifierForPharmacy}</span> : <span className="text-amber-800">{t("notMapped")}</span>}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

export function PrescriptionCard({ order }: { order: Order }) {
  const t = useTranslations("pharmacy.order.prescription");
  const trpc = useTRPC();
  // The signed file does not change: read once per visit.
  const file = useQuery(trpc.pharmacy.orders.prescriptionFile.queryOptions({ uid: order.uid }, { staleTime: Infinity, refetchOnWindowFocus: false, enabled: Boolean(order.prescriptionFilename) }));
  return (
    <Card level={3} title={t("title")}>
      <p className="text-sm text-slate-700">{t("doctor", { name: order.doctor?.displayName ?? "—" })}</p>
      {order.prescriptionFilename ? (
        <div className="mt-3">
          <QueryView query={file} loadingLabel={t("loading")} isEmpty={(data) => !data} empty={<EmptyState title={t("noFile")} />}>
            {(data) => <PdfView filename={data!.filename} contentBase64={data!.contentBase64} />}
          </QueryView>
        </div>
      ) : (
        <p className="mt-1 text-sm text-slate-500">{t("none")}</p>
      )}
    </Card>
  );
}

export function ShipmentsCard({ order }: { order: Order }) {
  const t = useTranslations("pharmacy.order.shipments");
  return (
    <Card level={3} title={t("title")}>
      {order.shipments.length === 0 ? (
        <p className="text-sm text-slate-500">{t("none")}</p>
      ) : (
        <ShipmentList shipments={order.shipments} trackLabel={t("track")} />
      )}
    </Card>
  );
}

export function PayoutsCard({ order }: { order: Order }) {
  const t = useTranslations("pharmacy.order.payouts");
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const reviewReason = usePayoutReviewReason();
  return (
    <Card level={3} title={t("title")}>
      {order.payouts.length === 0 ? (
        <p className="text-sm text-slate-500">{t("none")}</p>
      ) : (
        <ul className="space-y-1 text-sm">
          {order.payouts.map((p, i) => (
            <li key={i} className="flex justify-between gap-4">
              <span>
                {statusLabel("payoutComponent", p.componentType)} · {statusLabel("payout", p.status)}
                {p.routedAt ? ` ${format.dateTime(p.routedAt)}` : ""}
                {p.review ? <span className="ml-2 rounded-full bg-red-50 px-2 py-0.5 text-xs font-medium text-red-800">{t("needsReview", { reason: reviewReason(p.review) ?? p.review })}</span> : null}
              </span>
              <span className="tabular-nums">{format.money(p.amount, p.currency)}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

export function HistoryCard({ order }: { order: Order }) {
  const t = useTranslations("pharmacy.order.history");
  const format = useFormat();
  const historyText = useHistoryText();
  const systemNote = useSystemNote();
  return (
    <Card level={3} title={t("title")}>
      <ol className="space-y-2 text-sm">
        {order.history.map((h) => (
          <li key={h.uid} className="flex flex-wrap gap-x-3 border-l-2 border-slate-200 pl-3">
            <span className="w-40 shrink-0 text-slate-500">{format.dateTime(h.createdAt)}</span>
            <span className="text-slate-900">
              {historyText(h)}
              {h.comment ? <span className="text-slate-600"> — {systemNote("pharmacyOrder", h.comment)}</span> : null}
            </span>
            <span className="text-slate-500">{t("by", { name: h.actor.displayName ?? "", type: h.actor.type })}</span>
          </li>
        ))}
      </ol>
    </Card>
  );
}
