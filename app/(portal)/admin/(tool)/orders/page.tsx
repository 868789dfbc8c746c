import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { AdminOrderList } from "@/components/admin/orders/order-list";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.orders"))("list.meta") };
}

/** The list's search, page and filters are in the URL (links from the home page: ?status=…, ?onHold=1, ?withoutPharmacy=1). */
export default async function AdminOrdersPage() {
  const t = await getTranslations("admin.orders");
  return (
    <>
      <PageHeader title={t("list.pageTitle")} />
      <AdminOrderList />
    </>
  );
}
