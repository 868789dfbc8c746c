import { database } from "@/server/db/client";

/**
 * The start of the period `at` falls in: periods of a job are the multiples of its period since the
 * Unix epoch, so every process reading a clock agrees which period it is (as far as the clocks agree).
 */
export function periodStartOf(at: Date, periodMs: number): Date {
  return new Date(Math.floor(at.getTime() / periodMs) * periodMs);
}

/** Milliseconds from `at` to the start of the next period. */
export function msToNextPeriod(at: Date, periodMs: number): number {
  return periodMs - (at.getTime() % periodMs);
}

/**
 * Claims the run of job `jobId` for the period `at` falls in, for `holder` (a process: host and pid).
 * True for exactly one caller per period, however many processes ask at once and wherever they run:
 * one statement makes the job's lease row, or moves its period forward, only while the row's period
 * is older than this one (ScheduledJobLease; docs/decisions/operations.md#several-machines). A plain
 * statement with no session state, so it holds through a pooler in any mode. A period is never
 * claimed twice, even by processes whose clocks disagree: the row only moves forward. A process that
 * dies during its run holds nothing: the next period is free for anyone.
 */
export async function claimPeriod(input: { jobId: string; periodMs: number; at: Date; holder: string }): Promise<boolean> {
  const db = await database();
  const periodStart = periodStartOf(input.at, input.periodMs);
  const claimed = await db.$queryRaw<{ runs: number }[]>`
    INSERT INTO "ScheduledJobLease" ("jobId", "periodStart", "periodMs", "claimedBy", "claimedAt")
    VALUES (${input.jobId}, ${periodStart}, ${input.periodMs}, ${input.holder}, ${input.at})
    ON CONFLICT ("jobId") DO UPDATE
       SET "periodStart" = EXCLUDED."periodStart", "periodMs" = EXCLUDED."periodMs", "runs" = "ScheduledJobLease"."runs" + 1,
           "claimedBy" = EXCLUDED."claimedBy", "claimedAt" = EXCLUDED."claimedAt"
     WHERE "ScheduledJobLease"."periodStart" < EXCLUDED."periodStart"
    RETURNING "runs"`;
  return claimed.length === 1;
}
