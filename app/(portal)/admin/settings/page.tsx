import type { Metadata } from "next";
import { AdminPage } from "@/components/admin/admin-page";
import { AdminSettings } from "@/components/admin/settings/admin-settings";

export const metadata: Metadata = { title: "Settings · Admin tool" };

export default function AdminSettingsPage() {
  return (
    <AdminPage path="/admin/settings" title="Settings">
      <AdminSettings />
    </AdminPage>
  );
}
