import type { Metadata } from "next";
import { PharmacyPage } from "@/components/pharmacy/pharmacy-page";
import { WebhookSubscriptions } from "@/components/webhooks/webhook-subscriptions";

export const metadata: Metadata = { title: "Webhooks · Pharmacy portal" };

export default function WebhooksPage() {
  return (
    <PharmacyPage path="/pharmacy/api-access/webhooks" title="Webhooks">
      <WebhookSubscriptions portal="pharmacy" />
    </PharmacyPage>
  );
}
