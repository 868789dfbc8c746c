import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { serverTrpc, WithData } from "@/components/trpc/server";
import { AdminOrderDetail } from "@/components/admin/orders/order-detail";
import { AdminClarificationRequests } from "@/components/admin/orders/clarification-requests";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.orders"))("detail.meta") };
}

export default async function AdminOrderPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const t = await getTranslations("admin.orders");
  return (
    <>
      <PageHeader title={t("detail.pageTitle")} />
      <WithData queries={[serverTrpc.admin.orders.get.queryOptions({ uid })]}>
        <AdminOrderDetail uid={uid} />
        <AdminClarificationRequests uid={uid} />
      </WithData>
    </>
  );
}
