import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { OrderQueue } from "@/components/pharmacy/orders/order-queue";

export const metadata: Metadata = { title: "Orders · Pharmacy portal" };

export default function PharmacyOrdersPage() {
  return (
    <>
      <PageHeader title="Orders" />
      <OrderQueue />
    </>
  );
}
