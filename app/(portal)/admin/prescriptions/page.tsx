import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { PrescriptionList } from "@/components/admin/prescriptions/prescription-list";

export const metadata: Metadata = { title: "Prescriptions · Admin tool" };

export default function AdminPrescriptionsPage() {
  return (
    <AdminPage path="/admin/prescriptions" title="Prescriptions">
      <PrescriptionList />
    </AdminPage>
  );
}
