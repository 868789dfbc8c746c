import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { PrescriptionList } from "@/components/admin/prescriptions/prescription-list";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.prescriptions"))("list.meta") };
}

export default async function AdminPrescriptionsPage() {
  const t = await getTranslations("admin.prescriptions");
  return (
    <>
      <PageHeader title={t("list.pageTitle")} />
      <PrescriptionList />
    </>
  );
}
