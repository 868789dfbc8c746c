import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { DoctorWaitingRoom } from "@/components/admin/doctor/waiting-room";

export const metadata: Metadata = { title: "Waiting room · Doctors' workspace" };

export default function DoctorWaitingRoomPage() {
  return (
    <>
      <PageHeader title="Waiting room" />
      <DoctorWaitingRoom />
    </>
  );
}
