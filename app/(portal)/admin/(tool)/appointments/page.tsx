import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Appointments } from "@/components/appointments/appointments";
import { PageHeader } from "@/components/page-header";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("appointments.pages.admin"))("metaTitle") };
}

export default async function AdminAppointmentsPage() {
  const t = await getTranslations("appointments.pages.admin");
  return (
    <>
      <PageHeader title={t("title")} description={t("intro")} />
      <Appointments door="admin" />
    </>
  );
}
