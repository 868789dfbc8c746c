import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { DoctorDetail } from "@/components/admin/doctors/doctor-detail";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.doctors"))("detail.meta") };
}

export default async function AdminDoctorPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const t = await getTranslations("admin.doctors");
  return (
    <>
      <PageHeader title={t("detail.pageTitle")} description={t("detail.pageIntro")} />
      <DoctorDetail doctorUid={uid} />
    </>
  );
}
