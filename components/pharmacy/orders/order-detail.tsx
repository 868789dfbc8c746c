"use client";

import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { IssueThreads } from "./issue-threads";
import { Card } from "@/components/ui/card";
import { RecordLoadError } from "@/components/ui/record-load-error";
import { LoadingState, Notice } from "@/components/ui/states";
import { useErrorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { useFormat } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { isConflict, isNotFound, type Settle } from "./order-action-kit";
import { CustomerCard, DeliveryCard, HistoryCard, ItemsCard, PayoutsCard, PrescriptionCard, ShipmentsCard } from "./order-cards";
import { StatusAction } from "./status-action";
import { CompleteAction, ShipmentAction } from "./completion-actions";
import { ClarificationAction, DetailsAction } from "./order-edit-actions";

/** The order as it is now is refetched after every action, and every few seconds while the page is open. */
const DETAIL_REFRESH_MS = 15_000;

/** A pharmacy order: what it is (order-cards.tsx) on the left, what the pharmacist does with it (the action cards) on the right. */
export function OrderDetail({ uid }: { uid: string }) {
  const errorMessage = useErrorMessage();
  const t = useTranslations("pharmacy.order");
  const format = useFormat();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const detail = useQuery(trpc.pharmacy.orders.get.queryOptions({ uid }, { refetchInterval: DETAIL_REFRESH_MS, retry: (n, e) => n < 1 && !isNotFound(e) }));
  const [notice, setNotice] = useState<{ tone: "success" | "warning"; text: string } | null>(null);

  /**
   * After an action: refetch, then say what happened (a lost race, CONFLICT, too). The notice comes
   * only once the page shows the order as it is now: an action card keyed by the status starts afresh
   * when the new status arrives, and a form opened before that would be closed under the user's hands.
   */
  const settle: Settle = async (outcome) => {
    // The issue threads too: an on-hold comment or a clarification request opens one.
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.pharmacy.orders.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.pharmacy.issueThreads.pathKey() }),
    ]);
    if (outcome.ok) setNotice({ tone: "success", text: outcome.text });
    else if (isConflict(outcome.error)) setNotice({ tone: "warning", text: t("conflict", { reason: errorMessage(outcome.error) }) });
  };

  if (detail.isPending) return <LoadingState label={t("loading")} />;
  if (detail.isError) {
    return <RecordLoadError error={detail.error} notFound={t("notFound")} back={{ href: "/pharmacy/orders", label: t("backToOrders") }} onRetry={() => void detail.refetch()} />;
  }
  const order = detail.data;
  const customer = `${order.deliveryAddress.firstName} ${order.deliveryAddress.lastName}`;

  return (
    <div className="space-y-6">
      <Link prefetch={false} href="/pharmacy/orders" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t("orders")}
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <div className="min-w-0">
          <h2 className="text-xl font-semibold text-slate-900 wrap-anywhere">{order.name}</h2>
          <p className="mt-1 text-sm text-slate-600">
            {order.shopOrderName
              ? t("forCustomerShop", { customer, shopOrder: order.shopOrderName, pharmacy: order.pharmacy.displayName })
              : t("forCustomer", { customer, pharmacy: order.pharmacy.displayName })}
          </p>
          <p className="mt-1 text-xs text-slate-500">{t("created", { created: format.dateTime(order.createdAt), changed: format.dateTime(order.updatedAt) })}</p>
        </div>
        {/* external_status is always the spec's OPEN, which says nothing about this order: not shown (docs/decisions/portals.md#say-what-it-means). */}
        <StatusBadge kind="pharmacyOrder" status={order.status} />
      </div>

      <AnswerRead uid={order.uid} unreadAnswerAt={order.unreadAnswerAt} />
      {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <ItemsCard order={order} />
          <div className="grid gap-6 sm:grid-cols-2">
            <CustomerCard order={order} />
            <DeliveryCard order={order} />
          </div>
          <PrescriptionCard order={order} />
          <ShipmentsCard order={order} />
          <PayoutsCard order={order} />
          <Card level={3} title={t("threads")}>
            <IssueThreads pharmacyOrderUid={order.uid} />
          </Card>
          <HistoryCard order={order} />
        </div>

        {/* On a phone the pharmacist's task (status, completion) comes first, before the items and the PDF. */}
        <div className="order-first min-w-0 space-y-6 lg:order-none">
          {/* A new status from elsewhere starts the form afresh. */}
          <StatusAction key={order.status} order={order} settle={settle} />
          <CompleteAction key={`complete-${order.status}`} order={order} settle={settle} />
          <ClarificationAction key={`clarify-${order.status}`} order={order} settle={settle} />
          <DetailsAction key={`details-${order.status}-${order.priority}-${order.deliveryType}`} order={order} settle={settle} />
          <ShipmentAction key={`shipment-${order.status}`} order={order} settle={settle} />
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
  const t = useTranslations("pharmacy.order");
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
  return shown ? <Notice tone="warning">{t("newAnswer", { threads: t("threads") })}</Notice> : null;
}
