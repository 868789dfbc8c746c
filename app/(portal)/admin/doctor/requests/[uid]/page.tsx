import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { DoctorRequestDetail } from "@/components/admin/doctor/request-detail";

export const metadata: Metadata = { title: "Prescription request · Doctors' workspace" };

export default async function DoctorRequestPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  return (
    <>
      <PageHeader title="Prescription request" />
      <DoctorRequestDetail uid={uid} />
    </>
  );
}
