import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { AdminApiKeys } from "@/components/admin/api-keys";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("admin.apiKeys"))("metaTitle") };
}

export default async function AdminApiKeysPage() {
  const t = await getTranslations("admin.apiKeys");
  return (
    <>
      <PageHeader title={t("title")} />
      <AdminApiKeys />
    </>
  );
}
