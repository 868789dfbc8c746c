import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { WebhookSubscriptions } from "@/components/webhooks/webhook-subscriptions";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pharmacy.pages");
  return { title: t("webhooks.meta") };
}

export default async function WebhooksPage() {
  const t = await getTranslations("pharmacy.pages");
  return (
    <>
      <PageHeader title={t("webhooks.title")} />
      <WebhookSubscriptions portal="pharmacy" />
    </>
  );
}
