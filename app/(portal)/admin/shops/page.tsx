import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { Shops } from "@/components/admin/pharmacies/shops";

export const metadata: Metadata = { title: "Shops · Admin tool" };

export default function AdminShopsPage() {
  return (
    <AdminPage path="/admin/shops" title="Shops">
      <Shops />
    </AdminPage>
  );
}
