import { compactPharmacyOrderTally } from "@/server/domain/pharmacy-orders/tally";

/** Folds the pharmacy order tally's deltas every minute, so list totals stay a sum of a few rows. */
export const TALLY_COMPACTION_JOB = { id: "pharmacy-order-tally-compaction", cron: "* * * * *", everyMs: 60_000 } as const;

export async function runTallyCompaction(): Promise<{ rows: number }> {
  return { rows: await compactPharmacyOrderTally() };
}
