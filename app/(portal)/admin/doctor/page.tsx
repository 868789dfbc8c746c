import type { Metadata } from "next";
import { DoctorPage } from "@/components/admin/doctor/doctor-page";
import { DoctorRequestQueue } from "@/components/admin/doctor/request-queue";

export const metadata: Metadata = { title: "Prescription requests · Doctors' workspace" };

export default function DoctorRequestsPage() {
  return (
    <DoctorPage path="/admin/doctor" title="Prescription requests">
      <DoctorRequestQueue />
    </DoctorPage>
  );
}
