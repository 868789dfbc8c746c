"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { errorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";
import { useStatusLabel } from "@/components/ui/status";
import { PHARMACY_ORDER_STATUS } from "@/server/domain/pharmacy-orders/statuses";

const ordersWithStatus = (status: string) => `/pharmacy/orders?${new URLSearchParams({ status })}`;

/** What needs the pharmacist's attention, each with a link to where it is dealt with. */
export function AttentionSummary() {
  const statusLabel = useStatusLabel();
  const trpc = useTRPC();
  const summary = useQuery({ ...trpc.pharmacy.home.summary.queryOptions(), refetchInterval: 30_000 });
  if (summary.isPending) return <LoadingState label="Loading what needs attention…" />;
  if (summary.isError) return <ErrorState message={errorMessage(summary.error)} onRetry={() => summary.refetch()} />;
  const { waitingForPharmacy, onHold, newAnswers, failedDeliveries } = summary.data;
  const cards = [
    {
      label: "Orders waiting for you",
      count: waitingForPharmacy,
      detail: `Status “${statusLabel("pharmacyOrder", PHARMACY_ORDER_STATUS.waitingForPharmacy)}”: new orders to accept.`,
      href: ordersWithStatus("waiting for pharmacy"),
      link: "Open the order queue",
    },
    {
      label: "Orders on hold",
      count: onHold,
      detail: "Waiting for a clarification or for you to continue.",
      href: ordersWithStatus("on-hold"),
      link: "Show orders on hold",
    },
    {
      label: "Failed webhook deliveries",
      count: failedDeliveries.count,
      detail: `Dropped after all attempts, in the last ${failedDeliveries.days} days.`,
      href: `/pharmacy/api-access/delivery-logs?${new URLSearchParams({ state: "failed", from: String(failedDeliveries.since) })}`,
      link: "Open the delivery logs",
    },
  ];
  const nothing = cards.every((c) => c.count === 0) && newAnswers.count === 0;
  return (
    <section aria-labelledby="attention-heading">
      <h2 id="attention-heading" className="text-lg font-semibold text-slate-900">
        Needs attention
      </h2>
      {nothing ? <p className="mt-1 text-sm text-slate-600">Nothing is waiting for you right now.</p> : null}
      {newAnswers.count > 0 ? (
        <div role="status" aria-label="New answers from the admin team" className="mt-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
          <p className="font-medium">
            {newAnswers.count === 1 ? "The admin team answered about 1 order" : `The admin team answered about ${newAnswers.count} orders`}: open{" "}
            {newAnswers.count === 1 ? "it" : "each"} to read the answer.
          </p>
          <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
            {newAnswers.orders.map((o) => (
              <li key={o.uid}>
                <Link href={`/pharmacy/orders/${o.uid}`} className="font-medium text-brand-700 hover:underline">
                  {o.name}
                </Link>
              </li>
            ))}
            {newAnswers.count > newAnswers.orders.length ? <li>and {newAnswers.count - newAnswers.orders.length} more in the order queue</li> : null}
          </ul>
        </div>
      ) : null}
      <ul className="mt-3 grid gap-4 sm:grid-cols-3">
        {cards.map((card) => (
          <li key={card.label} className={`rounded-xl border bg-white p-5 shadow-sm ${card.count > 0 ? "border-amber-300" : "border-slate-200"}`}>
            <p className="text-sm font-medium text-slate-700">{card.label}</p>
            <p className={`mt-2 text-3xl font-semibold ${card.count > 0 ? "text-amber-800" : "text-slate-400"}`}>
              {card.count}
            </p>
            <p className="mt-1 text-xs text-slate-500">{card.detail}</p>
            <Link href={card.href} className="mt-3 inline-block text-sm font-medium text-brand-700 hover:underline">
              {card.link} →
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
