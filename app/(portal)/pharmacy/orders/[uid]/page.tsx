import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { serverTrpc, WithData } from "@/components/trpc/server";
import { OrderDetail } from "@/components/pharmacy/orders/order-detail";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pharmacy.pages");
  return { title: t("order.meta") };
}

export default async function PharmacyOrderPage({ params }: { params: Promise<{ uid: string }> }) {
  const t = await getTranslations("pharmacy.pages");
  const { uid } = await params;
  return (
    <>
      <PageHeader title={t("order.title")} />
      <WithData queries={[serverTrpc.pharmacy.orders.get.queryOptions({ uid })]}>
        <OrderDetail uid={uid} />
      </WithData>
    </>
  );
}
