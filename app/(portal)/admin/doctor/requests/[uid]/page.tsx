import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { DoctorRequestDetail } from "@/components/admin/doctor/request-detail";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("doctor.pages"))("request.metaTitle") };
}

export default async function DoctorRequestPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const t = await getTranslations("doctor.pages");
  return (
    <>
      <PageHeader title={t("request.title")} />
      <DoctorRequestDetail uid={uid} />
    </>
  );
}
