import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { serverTrpc, WithData } from "@/components/trpc/server";
import { FIRST_PAGE, opensUnfiltered } from "@/components/ui/list-page";
import { OrderQueue } from "@/components/pharmacy/orders/order-queue";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pharmacy.pages");
  return { title: t("orders.meta") };
}

export default async function PharmacyOrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const t = await getTranslations("pharmacy.pages");
  return (
    <>
      <PageHeader title={t("orders.title")} />
      {/* Opened from the navigation: the first page comes with the HTML; filtered, the browser asks. */}
      <WithData
        queries={[serverTrpc.pharmacy.pharmacies.list.queryOptions(), ...(opensUnfiltered(await searchParams) ? [serverTrpc.pharmacy.orders.list.queryOptions(FIRST_PAGE)] : [])]}
      >
        <OrderQueue />
      </WithData>
    </>
  );
}
