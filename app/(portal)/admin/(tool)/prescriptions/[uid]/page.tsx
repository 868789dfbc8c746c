import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { PrescriptionDetail } from "@/components/admin/prescriptions/prescription-detail";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.prescriptions"))("detail.meta") };
}

export default async function AdminPrescriptionPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const t = await getTranslations("admin.prescriptions");
  return (
    <>
      <PageHeader title={t("detail.pageTitle")} />
      <PrescriptionDetail uid={uid} />
    </>
  );
}
