import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { Catalogue } from "@/components/admin/catalogue/catalogue";

export const metadata: Metadata = { title: "Products and SKUs · Admin tool" };

export default function AdminCataloguePage() {
  return (
    <AdminPage path="/admin/catalogue" title="Products and SKUs">
      <Catalogue />
    </AdminPage>
  );
}
