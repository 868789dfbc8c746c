import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { WebhookSubscriptions } from "@/components/webhooks/webhook-subscriptions";

export const metadata: Metadata = { title: "Webhooks · Admin tool" };

export default function AdminWebhooksPage() {
  return (
    <AdminPage path="/admin/webhooks" title="Webhooks">
      <WebhookSubscriptions portal="admin" />
    </AdminPage>
  );
}
