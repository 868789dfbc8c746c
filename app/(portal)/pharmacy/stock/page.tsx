import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { StockPage } from "@/components/pharmacy/stock/stock-table";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pharmacy.pages");
  return { title: t("stock.meta") };
}

export default async function PharmacyStockPage() {
  const t = await getTranslations("pharmacy.pages");
  return (
    <>
      <PageHeader title={t("stock.title")} />
      <StockPage />
    </>
  );
}
