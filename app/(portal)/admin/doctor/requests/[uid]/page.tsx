import type { Metadata } from "next";
import { DoctorPage } from "@/components/admin/doctor/doctor-page";
import { DoctorRequestDetail } from "@/components/admin/doctor/request-detail";

export const metadata: Metadata = { title: "Prescription request · Doctors' workspace" };

export default async function DoctorRequestPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  return (
    <DoctorPage path={`/admin/doctor/requests/${encodeURIComponent(uid)}`} title="Prescription request">
      <DoctorRequestDetail uid={uid} />
    </DoctorPage>
  );
}
