import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { AdminPharmacyStock } from "@/components/admin/catalogue/pharmacy-stock";

export const metadata: Metadata = { title: "Pharmacy stock and prices · Admin tool" };

/** `?runningOut=1` (the admin home's link) opens the page on the SKUs running out. */
export default async function AdminPharmacyStockPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { runningOut } = await searchParams;
  return (
    <>
      <PageHeader title="Pharmacy stock and prices" />
      <AdminPharmacyStock runningOutFirst={runningOut === "1"} />
    </>
  );
}
