import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { Pharmacies } from "@/components/admin/pharmacies/pharmacies";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.pharmacies"))("list.meta") };
}

export default async function AdminPharmaciesPage() {
  const t = await getTranslations("admin.pharmacies");
  return (
    <>
      <PageHeader title={t("list.pageTitle")} />
      <Pharmacies />
    </>
  );
}
