import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { WebhookSubscriptions } from "@/components/webhooks/webhook-subscriptions";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.settings.webhooks"))("metaTitle") };
}

export default async function AdminWebhooksPage() {
  const t = await getTranslations("admin.settings.webhooks");
  return (
    <>
      <PageHeader title={t("title")} />
      <WebhookSubscriptions portal="admin" />
    </>
  );
}
