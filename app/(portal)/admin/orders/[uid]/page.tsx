import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { AdminOrderDetail } from "@/components/admin/orders/order-detail";

export const metadata: Metadata = { title: "Order · Admin tool" };

export default async function AdminOrderPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  return (
    <AdminPage path={`/admin/orders/${encodeURIComponent(uid)}`} title="Order">
      <AdminOrderDetail uid={uid} />
    </AdminPage>
  );
}
