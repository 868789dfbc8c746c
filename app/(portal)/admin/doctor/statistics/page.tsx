import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { DoctorStatistics } from "@/components/admin/doctor/statistics";

export const metadata: Metadata = { title: "My statistics · Doctors' workspace" };

export default function DoctorStatisticsPage() {
  return (
    <>
      <PageHeader title="My statistics" />
      <DoctorStatistics />
    </>
  );
}
