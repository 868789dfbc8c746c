import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { Pharmacies } from "@/components/admin/pharmacies/pharmacies";

export const metadata: Metadata = { title: "Pharmacies · Admin tool" };

export default function AdminPharmaciesPage() {
  return (
    <AdminPage path="/admin/pharmacies" title="Pharmacies">
      <Pharmacies />
    </AdminPage>
  );
}
