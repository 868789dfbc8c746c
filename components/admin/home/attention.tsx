"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { errorMessage } from "@/components/trpc/errors";
import { useTRPC } from "@/components/trpc/react";

const ordersWhere = (filter: Record<string, string>) => `/admin/orders?${new URLSearchParams(filter)}`;

/** What needs the organisation's attention, each a count with a link to the list that shows it. */
export function AdminAttention() {
  const trpc = useTRPC();
  const summary = useQuery({ ...trpc.admin.home.summary.queryOptions(), refetchInterval: 30_000 });
  if (summary.isPending) return <LoadingState label="Loading what needs attention…" />;
  if (summary.isError) return <ErrorState message={errorMessage(summary.error)} onRetry={() => summary.refetch()} />;
  const s = summary.data;
  const cards = [
    {
      label: "Open issue threads",
      count: s.openThreads,
      detail: "Pharmacies waiting for an answer (on-hold comments, clarification requests).",
      href: "/admin/issues",
      link: "Answer the threads",
    },
    {
      label: "Orders waiting for a doctor",
      count: s.waitingForDoctor,
      detail: "A prescription request has no doctor's decision yet.",
      href: ordersWhere({ status: "waiting for doctor" }),
      link: "Show these orders",
    },
    {
      label: "Orders without a pharmacy",
      count: s.withoutPharmacy,
      detail: "A fulfillment no pharmacy could take (stock, range).",
      href: ordersWhere({ withoutPharmacy: "1" }),
      link: "Show these orders",
    },
    {
      label: "Failed webhook deliveries",
      count: s.failedDeliveries.count,
      detail: `Dropped after all attempts, in the last ${s.failedDeliveries.days} days.`,
      href: `/admin/webhooks/logs?${new URLSearchParams({ state: "failed", from: String(s.failedDeliveries.since) })}`,
      link: "Open the delivery logs",
    },
    {
      label: "Pharmacies running out of stock",
      count: s.pharmaciesRunningOut.count,
      detail: `At least one SKU with ${s.pharmaciesRunningOut.threshold} or fewer in stock.`,
      href: "/admin/pharmacy-stock?runningOut=1",
      link: "Open pharmacy stock",
    },
  ];
  const nothing = cards.every((c) => c.count === 0);
  return (
    <section aria-labelledby="attention-heading">
      <h2 id="attention-heading" className="text-lg font-semibold text-slate-900">
        Needs attention
      </h2>
      {nothing ? <p className="mt-1 text-sm text-slate-600">Nothing needs attention right now.</p> : null}
      <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {cards.map((card) => (
          <li key={card.label} className={`rounded-xl border bg-white p-5 shadow-sm ${card.count > 0 ? "border-amber-300" : "border-slate-200"}`}>
            <p className="text-sm font-medium text-slate-700">{card.label}</p>
            <p className={`mt-2 text-3xl font-semibold tabular-nums ${card.count > 0 ? "text-amber-800" : "text-slate-400"}`}>{card.count}</p>
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
