import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Appointments } from "@/components/appointments/appointments";
import { PageHeader } from "@/components/page-header";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("appointments.pages.doctor"))("metaTitle") };
}

export default async function DoctorAppointmentsPage() {
  const t = await getTranslations("appointments.pages.doctor");
  return (
    <>
      <PageHeader title={t("title")} description={t("intro")} />
      <Appointments door="doctor" />
    </>
  );
}
