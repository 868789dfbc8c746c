import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { Shops } from "@/components/admin/pharmacies/shops";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.shops"))("meta") };
}

export default async function AdminShopsPage() {
  const t = await getTranslations("admin.shops");
  return (
    <>
      <PageHeader title={t("pageTitle")} />
      <Shops />
    </>
  );
}
