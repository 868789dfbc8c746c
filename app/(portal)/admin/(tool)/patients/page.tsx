import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { PatientSearch } from "@/components/admin/patients/patient-search";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.patients"))("metaTitle") };
}

export default async function AdminPatientsPage() {
  const t = await getTranslations("admin.patients");
  return (
    <>
      <PageHeader title={t("title")} />
      <p className="mb-4 max-w-3xl text-sm text-slate-600">{t("intro")}</p>
      <PatientSearch />
    </>
  );
}
