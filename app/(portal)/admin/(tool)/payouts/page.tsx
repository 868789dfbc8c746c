import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { PayoutsView } from "@/components/payouts/payouts-view";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("payouts"))("admin.meta") };
}

export default async function AdminPayoutsPage() {
  const t = await getTranslations("payouts");
  return (
    <>
      <PageHeader title={t("admin.title")} description={t("admin.intro")} />
      <PayoutsView scope={{ portal: "admin" }} />
    </>
  );
}
