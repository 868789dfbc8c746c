import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { Catalogue } from "@/components/admin/catalogue/catalogue";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.catalogue"))("meta") };
}

export default async function AdminCataloguePage() {
  const t = await getTranslations("admin.catalogue");
  return (
    <>
      <PageHeader title={t("pageTitle")} />
      <Catalogue />
    </>
  );
}
