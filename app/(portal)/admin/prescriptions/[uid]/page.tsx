import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { PrescriptionDetail } from "@/components/admin/prescriptions/prescription-detail";

export const metadata: Metadata = { title: "Prescription · Admin tool" };

export default async function AdminPrescriptionPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  return (
    <AdminPage path={`/admin/prescriptions/${encodeURIComponent(uid)}`} title="Prescription">
      <PrescriptionDetail uid={uid} />
    </AdminPage>
  );
}
