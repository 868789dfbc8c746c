import { presentPayoutRow } from "@/server/api/pharmacy-payouts/payout.presenters";
import type { ListedPayout } from "@/server/domain/payouts/list-payouts";
import { unix } from "@/server/wire/format";

/**
 * A payout row of the portals' payouts pages: the REST Payout row, plus `review` when the row was
 * flagged for review (its pharmacy order was cancelled after completion), which the spec's row has
 * no field for and the REST body therefore does not carry, and the receiving `pharmacy` (the admin
 * tool's pharmacy column).
 */
export function presentPortalPayoutRow(row: ListedPayout) {
  return {
    ...presentPayoutRow(row),
    review: row.reviewFlaggedAt ? { flaggedAt: unix(row.reviewFlaggedAt), reason: row.reviewReason } : null,
    pharmacy: { uid: row.receiverPharmacy.id, displayName: row.receiverPharmacy.displayName },
  };
}
