import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ApiKeysSettings } from "@/components/pharmacy/api-keys/api-keys-settings";
import { PageHeader } from "@/components/page-header";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pharmacy.pages");
  return { title: t("apiKeys.meta") };
}

export default async function ApiKeysPage() {
  const t = await getTranslations("pharmacy.pages");
  return (
    <>
      <PageHeader title={t("apiKeys.title")} />
      <ApiKeysSettings />
    </>
  );
}
