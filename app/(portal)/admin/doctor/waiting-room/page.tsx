import type { Metadata } from "next";
import { DoctorPage } from "@/components/admin/doctor/doctor-page";
import { DoctorWaitingRoom } from "@/components/admin/doctor/waiting-room";

export const metadata: Metadata = { title: "Waiting room · Doctors' workspace" };

export default function DoctorWaitingRoomPage() {
  return (
    <DoctorPage path="/admin/doctor/waiting-room" title="Waiting room">
      <DoctorWaitingRoom />
    </DoctorPage>
  );
}
