import { checkPharmacyOrderStatuses, type StatusCheckCursor, type StatusCheckSummary } from "@/server/domain/pharmacy-system/status-check";
import { log } from "@/server/log";

/** The automatic status check as a scheduled job: every five minutes, on Inngest or in-process. */
export const PHARMACY_STATUS_CHECK_JOB = {
  id: "pharmacy-status-check",
  cron: "*/5 * * * *",
  everyMs: 5 * 60_000,
} as const;

/** Per run: at most 1000 orders, 10 requests in flight, no new batch after four minutes. */
const LIMITS = { batchSize: 100, maxOrders: 1000, concurrency: 10, timeBudgetMs: 4 * 60_000 };

// Where the previous run stopped when it hit its limits; the next run in this process goes on from
// there (a restart starts again from the oldest open order, which is harmless).
let resumeAfter: StatusCheckCursor | null = null;

/** The run's counts; `more`: it stopped at its limits and the next run goes on after the last order it checked. */
export type PharmacyStatusCheckResult = Omit<StatusCheckSummary, "cursor"> & { more: boolean };

export async function runPharmacyStatusCheck(now = new Date()): Promise<PharmacyStatusCheckResult> {
  const { cursor, ...counts } = await checkPharmacyOrderStatuses({ now, after: resumeAfter, ...LIMITS });
  resumeAfter = cursor;
  const result = { ...counts, more: cursor !== null };
  if (result.checked > 0) log.info("pharmacy status check finished", { job: PHARMACY_STATUS_CHECK_JOB.id, ...result });
  return result;
}
