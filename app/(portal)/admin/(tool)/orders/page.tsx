import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { AdminOrderList } from "@/components/admin/orders/order-list";

export const metadata: Metadata = { title: "Orders · Admin tool" };

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The filters a link may carry (the home page's counts): ?status=…&onHold=1&withoutPharmacy=1&search=… */
export default async function AdminOrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  return (
    <>
      <PageHeader title="Orders" />
      <AdminOrderList
        initial={{
          search: one(params.search),
          status: one(params.status),
          onHold: one(params.onHold) === "1",
          withoutPharmacy: one(params.withoutPharmacy) === "1",
        }}
      />
    </>
  );
}
