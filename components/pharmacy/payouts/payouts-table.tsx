"use client";

import { PharmacyChoice } from "@/components/pharmacy/pharmacy-choice";
import { PayoutsView } from "@/components/payouts/payouts-view";

/** A pharmacy's payouts: the pharmacist's pharmacy, or the one a group pharmacist picks. */
export function PayoutsPage() {
  return <PharmacyChoice>{(pharmacyUid) => <PayoutsView scope={{ portal: "pharmacy", pharmacyUid }} />}</PharmacyChoice>;
}
