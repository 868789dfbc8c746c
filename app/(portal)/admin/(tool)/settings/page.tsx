import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { AdminSettings } from "@/components/admin/settings/admin-settings";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.settings"))("metaTitle") };
}

export default async function AdminSettingsPage() {
  const t = await getTranslations("admin.settings");
  return (
    <>
      <PageHeader title={t("title")} />
      <AdminSettings />
    </>
  );
}
