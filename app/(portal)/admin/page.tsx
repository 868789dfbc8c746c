import type { Metadata } from "next";
import { AdminAttention } from "@/components/admin/home/attention";
import { AdminPage } from "@/components/admin/admin-page";

export const metadata: Metadata = { title: "Admin tool" };

export default function AdminHomePage() {
  return (
    <AdminPage path="/admin">
      <AdminAttention />
    </AdminPage>
  );
}
