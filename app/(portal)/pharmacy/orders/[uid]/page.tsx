import type { Metadata } from "next";
import { PharmacyPage } from "@/components/pharmacy/pharmacy-page";
import { OrderDetail } from "@/components/pharmacy/orders/order-detail";

export const metadata: Metadata = { title: "Order · Pharmacy portal" };

export default async function PharmacyOrderPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  return (
    <PharmacyPage path={`/pharmacy/orders/${encodeURIComponent(uid)}`} title="Order">
      <OrderDetail uid={uid} />
    </PharmacyPage>
  );
}
