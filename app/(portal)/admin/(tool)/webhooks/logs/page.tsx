import type { Metadata } from "next";
import { Suspense } from "react";
import { PageHeader } from "@/components/page-header";
import { LoadingState } from "@/components/ui/states";
import { DeliveryLogs } from "@/components/webhooks/delivery-logs";

export const metadata: Metadata = { title: "Webhook delivery logs · Admin tool" };

export default function AdminWebhookLogsPage() {
  return (
    <>
      <PageHeader title="Webhook delivery logs" />
      <p className="mb-4 text-sm text-slate-600">
        Every delivery to the organisation&apos;s webhooks, with each attempt. A delivery is attempted up to five times with growing pauses;
        after that it has failed for good, and you may re-send it once the receiver works again. Pharmacies&apos; own webhooks are in
        their pharmacy portal.
      </p>
      {/* The filters read the page's query string (useSearchParams). */}
      <Suspense fallback={<LoadingState />}>
        <DeliveryLogs portal="admin" />
      </Suspense>
    </>
  );
}
