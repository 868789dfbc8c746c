import type { Metadata } from "next";
import { PharmacyPage } from "@/components/pharmacy/pharmacy-page";
import { PayoutsPage } from "@/components/pharmacy/payouts/payouts-table";

export const metadata: Metadata = { title: "Payouts · Pharmacy portal" };

export default function PharmacyPayoutsPage() {
  return (
    <PharmacyPage path="/pharmacy/payouts" title="Payouts">
      <PayoutsPage />
    </PharmacyPage>
  );
}
