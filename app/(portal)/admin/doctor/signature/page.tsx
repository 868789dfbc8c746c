import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { SigningCredential } from "@/components/admin/doctor/signing-credential";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("doctor.pages"))("signature.metaTitle") };
}

export default async function DoctorSignaturePage() {
  const t = await getTranslations("doctor.pages");
  return (
    <>
      <PageHeader title={t("signature.title")} />
      <SigningCredential />
    </>
  );
}
