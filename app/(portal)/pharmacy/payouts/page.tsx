import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { PayoutsPage } from "@/components/pharmacy/payouts/payouts-table";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pharmacy.pages");
  return { title: t("payouts.meta") };
}

export default async function PharmacyPayoutsPage() {
  const t = await getTranslations("pharmacy.pages");
  return (
    <>
      <PageHeader title={t("payouts.title")} />
      <PayoutsPage />
    </>
  );
}
