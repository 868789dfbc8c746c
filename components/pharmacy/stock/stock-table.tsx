"use client";

import { PharmacyChoice } from "@/components/pharmacy/pharmacy-choice";
import { StockTable } from "@/components/stock-table";
import { AssortmentTools } from "@/components/stock/assortment-tools";

/** Stock and prices: the pharmacist's pharmacy (or the one picked of the group), with its CSV import and export. */
export function StockPage() {
  return (
    <PharmacyChoice>
      {(pharmacyUid) => (
        <div className="space-y-6">
          <AssortmentTools pharmacyUid={pharmacyUid} editor="pharmacy" />
          <StockTable pharmacyUid={pharmacyUid} editor="pharmacy" />
        </div>
      )}
    </PharmacyChoice>
  );
}
