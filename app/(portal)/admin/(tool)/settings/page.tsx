import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { AdminSettings } from "@/components/admin/settings/admin-settings";

export const metadata: Metadata = { title: "Settings · Admin tool" };

export default function AdminSettingsPage() {
  return (
    <>
      <PageHeader title="Settings" />
      <AdminSettings />
    </>
  );
}
