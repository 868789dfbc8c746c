import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { DoctorList } from "@/components/admin/doctors/doctor-list";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.doctors"))("list.meta") };
}

export default async function AdminDoctorsPage() {
  const t = await getTranslations("admin.doctors");
  return (
    <>
      <PageHeader title={t("list.pageTitle")} description={t("list.intro")} />
      <DoctorList />
    </>
  );
}
