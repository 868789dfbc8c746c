import type { Metadata } from "next";
import { PageHeader } from "@/components/page-header";
import { PayoutsPage } from "@/components/pharmacy/payouts/payouts-table";

export const metadata: Metadata = { title: "Payouts · Pharmacy portal" };

export default function PharmacyPayoutsPage() {
  return (
    <>
      <PageHeader title="Payouts" />
      <PayoutsPage />
    </>
  );
}
