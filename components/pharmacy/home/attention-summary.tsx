"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { AttentionCards } from "@/components/ui/attention-cards";
import { QueryView } from "@/components/ui/query-view";
import { useTRPC } from "@/components/trpc/react";
import { useStatusLabel } from "@/components/ui/status";
import { PHARMACY_ORDER_STATUS } from "@/server/domain/pharmacy-orders/statuses";

const ordersWithStatus = (status: string) => `/pharmacy/orders?${new URLSearchParams({ status })}`;

/** What needs the pharmacist's attention, each with a link to where it is dealt with. */
export function AttentionSummary() {
  const t = useTranslations("pharmacy.home");
  const trpc = useTRPC();
  const summary = useQuery({ ...trpc.pharmacy.home.summary.queryOptions(), refetchInterval: 30_000 });
  return (
    <section aria-labelledby="attention-heading">
      <h2 id="attention-heading" className="text-lg font-semibold text-slate-900">
        {t("heading")}
      </h2>
      <div className="mt-1">
        <QueryView query={summary} loadingLabel={t("loading")}>
          {(data) => <Attention summary={data} />}
        </QueryView>
      </div>
    </section>
  );
}

type Summary = {
  waitingForPharmacy: number;
  onHold: number;
  newAnswers: { count: number; orders: { uid: string; name: string }[] };
  failedDeliveries: { count: number; days: number; since: number };
};

function Attention({ summary }: { summary: Summary }) {
  const t = useTranslations("pharmacy.home");
  const statusLabel = useStatusLabel();
  const { waitingForPharmacy, onHold, newAnswers, failedDeliveries } = summary;
  const cards = [
    {
      label: t("waiting"),
      count: waitingForPharmacy,
      detail: t("waitingDetail", { status: statusLabel("pharmacyOrder", PHARMACY_ORDER_STATUS.waitingForPharmacy) }),
      href: ordersWithStatus(PHARMACY_ORDER_STATUS.waitingForPharmacy),
      link: t("waitingLink"),
    },
    { label: t("onHold"), count: onHold, detail: t("onHoldDetail"), href: ordersWithStatus(PHARMACY_ORDER_STATUS.onHold), link: t("onHoldLink") },
    {
      label: t("failed"),
      count: failedDeliveries.count,
      detail: t("failedDetail", { days: failedDeliveries.days }),
      href: `/pharmacy/api-access/delivery-logs?${new URLSearchParams({ state: "failed", from: String(failedDeliveries.since) })}`,
      link: t("failedLink"),
    },
  ];
  const nothing = cards.every((c) => c.count === 0) && newAnswers.count === 0;
  const more = newAnswers.count - newAnswers.orders.length;
  return (
    <>
      {nothing ? <p className="text-sm text-slate-600">{t("nothing")}</p> : null}
      {newAnswers.count > 0 ? (
        <div role="status" aria-label={t("answersLabel")} className="mt-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
          <p className="font-medium">{t("answers", { count: newAnswers.count })}</p>
          <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
            {newAnswers.orders.map((o) => (
              <li key={o.uid}>
                <Link prefetch={false} href={`/pharmacy/orders/${o.uid}`} className="font-medium text-brand-700 hover:underline">
                  {o.name}
                </Link>
              </li>
            ))}
            {more > 0 ? <li>{t("answersMore", { count: more })}</li> : null}
          </ul>
        </div>
      ) : null}
      <AttentionCards cards={cards} className="sm:grid-cols-3" />
    </>
  );
}
