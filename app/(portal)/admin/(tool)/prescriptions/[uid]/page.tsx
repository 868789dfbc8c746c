import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { PrescriptionDetail } from "@/components/admin/prescriptions/prescription-detail";

export const metadata: Metadata = { title: "Prescription · Admin tool" };

export default async function AdminPrescriptionPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  return (
    <>
      <PageHeader title="Prescription" />
      <PrescriptionDetail uid={uid} />
    </>
  );
}
