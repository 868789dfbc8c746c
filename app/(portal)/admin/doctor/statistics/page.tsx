import type { Metadata } from "next";
import { DoctorPage } from "@/components/admin/doctor/doctor-page";
import { DoctorStatistics } from "@/components/admin/doctor/statistics";

export const metadata: Metadata = { title: "My statistics · Doctors' workspace" };

export default function DoctorStatisticsPage() {
  return (
    <DoctorPage path="/admin/doctor/statistics" title="My statistics">
      <DoctorStatistics />
    </DoctorPage>
  );
}
