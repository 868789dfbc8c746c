import { presentPayoutRow } from "@/server/api/pharmacy-payouts/payout.presenters";
import type { ListedPayout } from "@/server/domain/payouts/list-payouts";
import { unix } from "@/server/wire/format";

/**
 * A payout row of the portals' payouts pages: the REST Payout row, plus `review` when the row was
 * flagged for review (its pharmacy order was cancelled after completion), which the spec's row has
 * no field for and the REST body therefore does not carry, and the receiving `pharmacy` (the admin
 * tool's pharmacy column). The admin tool also gets the row's `uid` and its route at the payment
 * provider (`providerRouting`: pending, routed, failed with the reason, skipped; null when no
 * provider was connected), which the Retry of a failed route needs.
 */
export function presentPortalPayoutRow(row: ListedPayout, door: "admin" | "pharmacy") {
  const admin = door === "admin";
  return {
    ...presentPayoutRow(row),
    uid: admin ? row.id : null,
    providerRouting: admin && row.providerRouting ? { state: row.providerRouting.toLowerCase() as Lowercase<typeof row.providerRouting>, error: row.providerError } : null,
    review: row.reviewFlaggedAt ? { flaggedAt: unix(row.reviewFlaggedAt), reason: row.reviewReason } : null,
    pharmacy: { uid: row.receiverPharmacy.id, displayName: row.receiverPharmacy.displayName },
  };
}
