"use client";

import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type ReactNode } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Card } from "@/components/ui/card";
import { RecordLoadError } from "@/components/ui/record-load-error";
import { EmptyState, LoadingState, Notice } from "@/components/ui/states";
import { isNotFound } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { useFormat } from "@/components/ui/format";
import { useStatusLabel } from "@/components/ui/status";
import type { AdminOrderDetailView } from "@/server/trpc/routers/admin-orders.presenters";
import { FulfillmentCard } from "./fulfillment-card";
import { OrderStatusBadge } from "./order-list";
import { OrderPrescriptions } from "./order-prescriptions";
import { PostalAddress } from "@/components/orders/delivery";

export type Order = AdminOrderDetailView;
/** What an action on the order page reports back (shown above the cards). */
export type Done = (notice: { tone: "success" | "warning"; text: string }) => Promise<void>;


export function AdminOrderDetail({ uid }: { uid: string }) {
  const t = useTranslations("admin.orders");
  const format = useFormat();
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const detail = useQuery(trpc.admin.orders.get.queryOptions({ uid }, { refetchInterval: 30_000, retry: (n, e) => n < 1 && !isNotFound(e) }));
  const [notice, setNotice] = useState<{ tone: "success" | "warning"; text: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.orders.pathKey() });
  const done: Done = async (n) => {
    setNotice(n);
    await refresh();
  };

  if (detail.isPending) return <LoadingState label={t("detail.loading")} />;
  if (detail.isError) {
    return <RecordLoadError error={detail.error} notFound={t("detail.notFound")} back={{ href: "/admin/orders", label: t("detail.backToOrders") }} onRetry={() => void detail.refetch()} />;
  }
  const order = detail.data;

  return (
    <div className="min-w-0 space-y-6">
      <Link prefetch={false} href="/admin/orders" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t("detail.orders")}
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <div className="min-w-0">
          <h2 className="text-xl font-semibold break-words text-slate-900">{order.name}</h2>
          <p className="mt-1 text-sm break-words text-slate-600">
            {t.rich(order.shopOrder ? "detail.factsWithShop" : "detail.facts", {
              externalId: order.externalId,
              shop: order.shopOrder?.shop ?? "",
              priority: order.priority,
              mono: (chunks) => <span className="font-mono break-all">{chunks}</span>,
            })}
          </p>
          <p className="mt-1 text-xs break-words text-slate-500">
            {t("detail.times", { created: format.dateTime(order.createdAt), changed: format.dateTime(order.lastChangeAt) })} ·{" "}
            <span className="font-mono break-all">{order.uid}</span>
          </p>
        </div>
        <div className="flex flex-col items-start gap-2 sm:items-end">
          <OrderStatusBadge
            status={order.status}
            onHold={order.onHold}
            pharmacyOrderStatuses={order.fulfillments.flatMap((f) => (f.pharmacyOrder ? [f.pharmacyOrder.status] : []))}
          />
          <span className="text-xs text-slate-500">{t("detail.overall", { status: statusLabel("overall", order.overallStatus) })}</span>
        </div>
      </div>

      {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
      {order.onHold || order.status === "paused" ? <ReleaseHold order={order} onDone={done} /> : null}

      <div className="grid gap-6 md:grid-cols-3">
        <Card level={3} title={t("detail.customerAndPatient")}>
          <dl className="space-y-2 text-sm">
            <Row label={t("detail.patient")}>
              <Link prefetch={false} href={`/admin/patients/${order.patient.uid}`} className="font-medium text-brand-700 hover:underline">
                {order.patient.displayName || t("detail.patientPage")}
              </Link>
            </Row>
            <Row label={t("detail.customerEmail")}>{order.customerEmail ?? "—"}</Row>
            <Row label={t("detail.patientEmail")}>{order.patient.email ?? "—"}</Row>
            <Row label={t("detail.dateOfBirth")}>{format.calendarDate(order.patient.dateOfBirth)}</Row>
            <Row label={t("detail.shippingCost")}>{order.shippingCost ? format.money(order.shippingCost.amount, order.shippingCost.currency) : "—"}</Row>
          </dl>
        </Card>
        <Card level={3} title={t("detail.deliveryAddress")}>
          <PostalAddress address={order.deliveryAddress} />
        </Card>
        <Card level={3} title={t("detail.invoiceAddress")}>
          <PostalAddress address={order.invoiceAddress} />
        </Card>
      </div>

      <section aria-labelledby="fulfillments-heading" className="space-y-4">
        <h2 id="fulfillments-heading" className="text-lg font-semibold text-slate-900">
          {t("detail.fulfillments")}
        </h2>
        {order.fulfillments.length === 0 ? <EmptyState title={t("detail.noFulfillments")} /> : null}
        {order.fulfillments.map((f) => (
          <FulfillmentCard key={f.uid} order={order} fulfillment={f} onDone={done} />
        ))}
      </section>

      <OrderPrescriptions order={order} />
    </div>
  );
}

function ReleaseHold({ order, onDone }: { order: Order; onDone: Done }) {
  const t = useTranslations("admin.orders");
  const trpc = useTRPC();
  const release = useMutation(
    trpc.admin.orders.releaseHold.mutationOptions({
      onSuccess: (r) =>
        onDone(
          !r.released
            ? { tone: "warning", text: t("hold.alreadyReleased") }
            : r.unroutableFulfillmentUids.length > 0
              ? { tone: "warning", text: t("hold.releasedUnroutable", { count: r.unroutableFulfillmentUids.length }) }
              : { tone: "success", text: t("hold.released", { count: r.pharmacyOrderUids.length }) },
        ),
    }),
  );
  return (
    <div className="rounded-xl border border-amber-300 bg-amber-50 p-5">
      <h3 className="text-sm font-semibold text-amber-900">{t("createdOnHold")}</h3>
      <p className="mt-1 text-sm text-amber-900">
        {t("hold.explanation")}
        {order.holdComment ? ` ${t("hold.comment", { comment: order.holdComment })}` : ""}
      </p>
      <ConfirmButton
        buttonTone="primary"
        className="mt-3"
        title={t("hold.confirmTitle", { name: order.name })}
        confirmLabel={t("hold.confirm")}
        pendingLabel={t("hold.releasing")}
        tone="primary"
        onConfirm={() => release.mutateAsync({ uid: order.uid })}
        consequence={<p>{t("hold.consequence")}</p>}
      >
        {t("hold.release")}
      </ConfirmButton>
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
