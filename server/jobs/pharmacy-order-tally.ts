import { compactOrderTally } from "@/server/domain/orders/tally";
import { compactPharmacyOrderTally } from "@/server/domain/pharmacy-orders/tally";

/**
 * Folds the tallies' deltas every minute (the pharmacy order tally and the order tally), so list
 * totals stay a sum of a few rows. The job keeps its first name and id: it is registered under it.
 */
export const TALLY_COMPACTION_JOB = { id: "pharmacy-order-tally-compaction", cron: "* * * * *", everyMs: 60_000 } as const;

export async function runTallyCompaction(): Promise<{ rows: number }> {
  return { rows: (await compactPharmacyOrderTally()) + (await compactOrderTally()) };
}
