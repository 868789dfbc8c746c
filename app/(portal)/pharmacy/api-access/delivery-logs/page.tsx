import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { DeliveryLogs } from "@/components/webhooks/delivery-logs";
import { PageHeader } from "@/components/page-header";
import { LoadingState } from "@/components/ui/states";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pharmacy.pages");
  return { title: t("deliveryLogs.meta") };
}

export default async function DeliveryLogsPage() {
  const t = await getTranslations("pharmacy.pages");
  return (
    <>
      <PageHeader title={t("deliveryLogs.title")} />
      <p className="mb-4 text-sm text-slate-600">{t("deliveryLogs.intro")}</p>
      {/* The filters read the page's query string (useSearchParams). */}
      <Suspense fallback={<LoadingState />}>
        <DeliveryLogs portal="pharmacy" />
      </Suspense>
    </>
  );
}
