import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Suspense } from "react";
import { PageHeader } from "@/components/page-header";
import { LoadingState } from "@/components/ui/states";
import { DeliveryLogs } from "@/components/webhooks/delivery-logs";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.settings.webhooks"))("logsMetaTitle") };
}

export default async function AdminWebhookLogsPage() {
  const t = await getTranslations("admin.settings.webhooks");
  return (
    <>
      <PageHeader title={t("logsTitle")} />
      <p className="mb-4 text-sm text-slate-600">{t("logsIntro")}</p>
      {/* The filters read the page's query string (useSearchParams). */}
      <Suspense fallback={<LoadingState />}>
        <DeliveryLogs portal="admin" />
      </Suspense>
    </>
  );
}
