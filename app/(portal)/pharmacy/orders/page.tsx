import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { OrderQueue } from "@/components/pharmacy/orders/order-queue";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pharmacy.pages");
  return { title: t("orders.meta") };
}

export default async function PharmacyOrdersPage() {
  const t = await getTranslations("pharmacy.pages");
  return (
    <>
      <PageHeader title={t("orders.title")} />
      <OrderQueue />
    </>
  );
}
