import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { TelemedicineProviders } from "@/components/admin/telemedicine-providers";

export const metadata: Metadata = { title: "Telemedicine providers · Admin tool" };

export default function AdminTelemedicineProvidersPage() {
  return (
    <>
      <PageHeader title="Telemedicine providers" />
      <TelemedicineProviders />
    </>
  );
}
