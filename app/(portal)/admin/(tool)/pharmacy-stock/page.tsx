import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { AdminPharmacyStock } from "@/components/admin/catalogue/pharmacy-stock";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.catalogue.stock"))("meta") };
}

/** `?runningOut=1` (the admin home's link) opens the page on the SKUs running out; `?pharmacy=` on one pharmacy. */
export default async function AdminPharmacyStockPage() {
  const t = await getTranslations("admin.catalogue.stock");
  return (
    <>
      <PageHeader title={t("pageTitle")} />
      <AdminPharmacyStock />
    </>
  );
}
