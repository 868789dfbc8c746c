import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { OrderDetail } from "@/components/pharmacy/orders/order-detail";

export const metadata: Metadata = { title: "Order · Pharmacy portal" };

export default async function PharmacyOrderPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  return (
    <>
      <PageHeader title="Order" />
      <OrderDetail uid={uid} />
    </>
  );
}
