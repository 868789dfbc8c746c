import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { AdminOrderDetail } from "@/components/admin/orders/order-detail";

export const metadata: Metadata = { title: "Order · Admin tool" };

export default async function AdminOrderPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  return (
    <>
      <PageHeader title="Order" />
      <AdminOrderDetail uid={uid} />
    </>
  );
}
