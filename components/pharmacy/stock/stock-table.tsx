"use client";

import { PharmacyChoice } from "@/components/pharmacy/pharmacy-choice";
import { StockTable } from "@/components/stock-table";

/** Stock and prices: the pharmacist's pharmacy (or the one picked of the group). */
export function StockPage() {
  return <PharmacyChoice>{(pharmacyUid) => <StockTable pharmacyUid={pharmacyUid} editor="pharmacy" />}</PharmacyChoice>;
}
