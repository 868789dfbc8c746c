import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { StockPage } from "@/components/pharmacy/stock/stock-table";

export const metadata: Metadata = { title: "Stock and prices · Pharmacy portal" };

export default function PharmacyStockPage() {
  return (
    <>
      <PageHeader title="Stock and prices" />
      <StockPage />
    </>
  );
}
