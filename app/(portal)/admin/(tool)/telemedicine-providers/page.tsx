import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { TelemedicineProviders } from "@/components/admin/telemedicine-providers";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.telemedicine"))("metaTitle") };
}

export default async function AdminTelemedicineProvidersPage() {
  const t = await getTranslations("admin.telemedicine");
  return (
    <>
      <PageHeader title={t("title")} />
      <TelemedicineProviders />
    </>
  );
}
