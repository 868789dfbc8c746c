import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { WebhookSubscriptions } from "@/components/webhooks/webhook-subscriptions";

export const metadata: Metadata = { title: "Webhooks · Admin tool" };

export default function AdminWebhooksPage() {
  return (
    <>
      <PageHeader title="Webhooks" />
      <WebhookSubscriptions portal="admin" />
    </>
  );
}
