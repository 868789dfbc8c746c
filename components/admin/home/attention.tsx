"use client";

import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { QueryView } from "@/components/ui/query-view";
import { AttentionCards } from "@/components/ui/attention-cards";
import { useTRPC } from "@/components/trpc/react";

const ordersWhere = (filter: Record<string, string>) => `/admin/orders?${new URLSearchParams(filter)}`;

/** What needs the organisation's attention, each a count with a link to the list that shows it. */
export function AdminAttention() {
  const t = useTranslations("admin.home");
  const trpc = useTRPC();
  const summary = useQuery({ ...trpc.admin.home.summary.queryOptions(), refetchInterval: 30_000 });
  return (
    <QueryView query={summary} loadingLabel={t("loading")}>
      {(s) => {
        const cards = [
          { count: s.openThreads, detail: t("threads.detail"), href: "/admin/issues", label: t("threads.label"), link: t("threads.link") },
          {
            count: s.waitingForDoctor,
            detail: t("doctor.detail"),
            href: ordersWhere({ status: "waiting for doctor" }),
            label: t("doctor.label"),
            link: t("showOrders"),
          },
          {
            count: s.overdueRequests,
            detail: t("overdue.detail"),
            href: "/admin/doctors",
            label: t("overdue.label"),
            link: t("overdue.link"),
          },
          {
            count: s.withoutPharmacy,
            detail: t("pharmacy.detail"),
            href: ordersWhere({ withoutPharmacy: "1" }),
            label: t("pharmacy.label"),
            link: t("showOrders"),
          },
          {
            count: s.failedDeliveries.count,
            detail: t("webhooks.detail", { days: s.failedDeliveries.days }),
            href: `/admin/webhooks/logs?${new URLSearchParams({ state: "failed", from: String(s.failedDeliveries.since) })}`,
            label: t("webhooks.label"),
            link: t("webhooks.link"),
          },
          {
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
            <AttentionCards cards={cards} className="sm:grid-cols-2 lg:grid-cols-3" />
          </section>
        );
      }}
    </QueryView>
  );
}
