import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { PrescriptionList } from "@/components/admin/prescriptions/prescription-list";

export const metadata: Metadata = { title: "Prescriptions · Admin tool" };

export default function AdminPrescriptionsPage() {
  return (
    <>
      <PageHeader title="Prescriptions" />
      <PrescriptionList />
    </>
  );
}
