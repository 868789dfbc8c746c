import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { AdminWebhookSubscriptions } from "@/components/admin/webhooks/webhook-subscriptions";

export const metadata: Metadata = { title: "Webhooks · Admin tool" };

export default function AdminWebhooksPage() {
  return (
    <AdminPage path="/admin/webhooks" title="Webhooks">
      <AdminWebhookSubscriptions />
    </AdminPage>
  );
}
