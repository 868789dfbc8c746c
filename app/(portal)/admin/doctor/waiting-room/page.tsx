import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { DoctorWaitingRoom } from "@/components/admin/doctor/waiting-room";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("doctor.pages"))("waitingRoom.metaTitle") };
}

export default async function DoctorWaitingRoomPage() {
  const t = await getTranslations("doctor.pages");
  return (
    <>
      <PageHeader title={t("waitingRoom.title")} />
      <DoctorWaitingRoom />
    </>
  );
}
