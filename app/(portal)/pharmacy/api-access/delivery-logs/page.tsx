import type { Metadata } from "next";
import { Suspense } from "react";
import { DeliveryLogs } from "@/components/webhooks/delivery-logs";
import { PageHeader } from "@/components/page-header";
import { LoadingState } from "@/components/ui/states";

export const metadata: Metadata = { title: "Webhook delivery logs · Pharmacy portal" };

export default function DeliveryLogsPage() {
  return (
    <>
      <PageHeader title="Webhook delivery logs" />
      <p className="mb-4 text-sm text-slate-600">
        Every delivery to your webhooks, with each attempt. A delivery is attempted up to five times with growing pauses; after that it
        has failed for good, and you may re-send it once your receiver works again.
      </p>
      {/* The filters read the page's query string (useSearchParams). */}
      <Suspense fallback={<LoadingState />}>
        <DeliveryLogs portal="pharmacy" />
      </Suspense>
    </>
  );
}
