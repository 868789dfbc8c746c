import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { TelemedicineProviders } from "@/components/admin/telemedicine-providers";

export const metadata: Metadata = { title: "Telemedicine providers · Admin tool" };

export default function AdminTelemedicineProvidersPage() {
  return (
    <AdminPage path="/admin/telemedicine-providers" title="Telemedicine providers">
      <TelemedicineProviders />
    </AdminPage>
  );
}
