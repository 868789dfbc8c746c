import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { WebhookSubscriptions } from "@/components/webhooks/webhook-subscriptions";

export const metadata: Metadata = { title: "Webhooks · Pharmacy portal" };

export default function WebhooksPage() {
  return (
    <>
      <PageHeader title="Webhooks" />
      <WebhookSubscriptions portal="pharmacy" />
    </>
  );
}
