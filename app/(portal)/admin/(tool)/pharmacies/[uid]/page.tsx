import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { PharmacyDetail } from "@/components/admin/pharmacies/pharmacy-detail";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.pharmacies"))("detail.meta") };
}

export default async function AdminPharmacyPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const t = await getTranslations("admin.pharmacies");
  return (
    <>
      <PageHeader title={t("detail.pageTitle")} />
      <PharmacyDetail pharmacyUid={uid} />
    </>
  );
}
