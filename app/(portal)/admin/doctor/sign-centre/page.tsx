import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { SignCentre } from "@/components/admin/doctor/sign-centre";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("doctor.pages"))("signCentre.metaTitle") };
}

export default async function DoctorSignCentrePage() {
  const t = await getTranslations("doctor.pages");
  return (
    <>
      <PageHeader title={t("signCentre.title")} description={t("signCentre.description")} />
      <SignCentre />
    </>
  );
}
