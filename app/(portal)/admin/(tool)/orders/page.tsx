import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { serverTrpc, WithData } from "@/components/trpc/server";
import { FIRST_PAGE, opensUnfiltered } from "@/components/ui/list-page";
import { AdminOrderList } from "@/components/admin/orders/order-list";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.orders"))("list.meta") };
}

/** The list's search, page and filters are in the URL (links from the home page: ?status=…, ?onHold=1, ?withoutPharmacy=1). */
export default async function AdminOrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const t = await getTranslations("admin.orders");
  return (
    <>
      <PageHeader title={t("list.pageTitle")} />
      {/* Opened from the navigation: the first page comes with the HTML; filtered, the browser asks. */}
      <WithData queries={opensUnfiltered(await searchParams) ? [serverTrpc.admin.orders.list.queryOptions(FIRST_PAGE)] : []}>
        <AdminOrderList />
      </WithData>
    </>
  );
}
