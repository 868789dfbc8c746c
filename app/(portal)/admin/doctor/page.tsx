import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { DoctorRequestQueue } from "@/components/admin/doctor/request-queue";

export const metadata: Metadata = { title: "Prescription requests · Doctors' workspace" };

export default function DoctorRequestsPage() {
  return (
    <>
      <PageHeader title="Prescription requests" />
      <DoctorRequestQueue />
    </>
  );
}
