import type { Metadata } from "next";
import { PharmacyPage } from "@/components/pharmacy/pharmacy-page";
import { OrderQueue } from "@/components/pharmacy/orders/order-queue";

export const metadata: Metadata = { title: "Orders · Pharmacy portal" };

export default function PharmacyOrdersPage() {
  return (
    <PharmacyPage path="/pharmacy/orders" title="Orders">
      <OrderQueue />
    </PharmacyPage>
  );
}
