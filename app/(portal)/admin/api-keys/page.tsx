import type { Metadata } from "next";
import { AdminApiKeys } from "@/components/admin/api-keys";
import { AdminPage } from "@/components/admin/admin-page";

export const metadata: Metadata = { title: "API keys · Admin tool" };

export default function AdminApiKeysPage() {
  return (
    <AdminPage path="/admin/api-keys" title="API keys">
      <AdminApiKeys />
    </AdminPage>
  );
}
