import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { AdminPharmacyStock } from "@/components/admin/catalogue/pharmacy-stock";

export const metadata: Metadata = { title: "Pharmacy stock and prices · Admin tool" };

export default function AdminPharmacyStockPage() {
  return (
    <AdminPage path="/admin/pharmacy-stock" title="Pharmacy stock and prices">
      <AdminPharmacyStock />
    </AdminPage>
  );
}
