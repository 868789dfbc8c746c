import type { Metadata } from "next";
import { PharmacyPage } from "@/components/pharmacy/pharmacy-page";
import { StockPage } from "@/components/pharmacy/stock/stock-table";

export const metadata: Metadata = { title: "Stock and prices · Pharmacy portal" };

export default function PharmacyStockPage() {
  return (
    <PharmacyPage path="/pharmacy/stock" title="Stock and prices">
      <StockPage />
    </PharmacyPage>
  );
}
