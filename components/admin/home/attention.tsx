"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { QueryView } from "@/components/ui/query-view";
import { useFormat } from "@/components/ui/format";
import { useTRPC } from "@/components/trpc/react";

const ordersWhere = (filter: Record<string, string>) => `/admin/orders?${new URLSearchParams(filter)}`;

/** What needs the organisation's attention, each a count with a link to the list that shows it. */
export function AdminAttention() {
  const t = useTranslations("admin.home");
  const format = useFormat();
  const trpc = useTRPC();
  const summary = useQuery({ ...trpc.admin.home.summary.queryOptions(), refetchInterval: 30_000 });
  return (
    <QueryView query={summary} loadingLabel={t("loading")}>
      {(s) => {
        const cards = [
          { id: "threads", count: s.openThreads, detail: t("threads.detail"), href: "/admin/issues", label: t("threads.label"), link: t("threads.link") },
          {
            id: "doctor",
            count: s.waitingForDoctor,
            detail: t("doctor.detail"),
            href: ordersWhere({ status: "waiting for doctor" }),
            label: t("doctor.label"),
            link: t("showOrders"),
          },
          {
            id: "pharmacy",
            count: s.withoutPharmacy,
            detail: t("pharmacy.detail"),
            href: ordersWhere({ withoutPharmacy: "1" }),
            label: t("pharmacy.label"),
            link: t("showOrders"),
          },
          {
            id: "webhooks",
            count: s.failedDeliveries.count,
            detail: t("webhooks.detail", { days: s.failedDeliveries.days }),
            href: `/admin/webhooks/logs?${new URLSearchParams({ state: "failed", from: String(s.failedDeliveries.since) })}`,
            label: t("webhooks.label"),
            link: t("webhooks.link"),
          },
          {
            id: "stock",
            count: s.pharmaciesRunningOut.count,
            detail: t("stock.detail", { threshold: s.pharmaciesRunningOut.threshold }),
            href: "/admin/pharmacy-stock?runningOut=1",
            label: t("stock.label"),
            link: t("stock.link"),
          },
        ];
        const nothing = cards.every((c) => c.count === 0);
        return (
          <section aria-labelledby="attention-heading">
            <h2 id="attention-heading" className="text-lg font-semibold text-slate-900">
              {t("heading")}
            </h2>
            {nothing ? <p className="mt-1 text-sm text-slate-600">{t("nothing")}</p> : null}
            <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {cards.map((card) => (
                <li key={card.id} className={`rounded-xl border bg-white p-5 shadow-sm ${card.count > 0 ? "border-amber-300" : "border-slate-200"}`}>
                  <p className="text-sm font-medium text-slate-700">{card.label}</p>
                  <p className={`mt-2 text-3xl font-semibold tabular-nums ${card.count > 0 ? "text-amber-800" : "text-slate-500"}`}>{format.number(card.count)}</p>
                  <p className="mt-1 text-xs text-slate-500">{card.detail}</p>
                  <Link href={card.href} className="mt-3 inline-block text-sm font-medium text-brand-700 hover:underline">
                    {card.link} →
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        );
      }}
    </QueryView>
  );
}
