import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { DoctorStatistics } from "@/components/admin/doctor/statistics";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("doctor.pages"))("statistics.metaTitle") };
}

export default async function DoctorStatisticsPage() {
  const t = await getTranslations("doctor.pages");
  return (
    <>
      <PageHeader title={t("statistics.title")} />
      <DoctorStatistics />
    </>
  );
}
