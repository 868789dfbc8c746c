import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { PatientDetail } from "@/components/admin/patients/patient-detail";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.patients"))("detail.metaTitle") };
}

export default async function AdminPatientPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const t = await getTranslations("admin.patients");
  return (
    <>
      <PageHeader title={t("detail.title")} />
      <PatientDetail uid={uid} />
    </>
  );
}
