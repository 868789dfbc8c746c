/**
 * Proving that a concurrent transaction is really waiting for a lock, so that a race test exercises
 * the race instead of passing because the waiter had not got there yet. PostgreSQL only: PGlite has
 * one connection, its transactions run one after another and nothing ever waits on a lock.
 */
import type { Db } from "@/server/db/client";
import { until } from "./wait";

export const onPostgres = process.env.DATABASE_URL?.startsWith("postgres") ?? false;

/** Resolves once `count` sessions of this test file's database wait for a lock (pg_locks, not granted). */
export async function untilWaitingForLock(db: Db, count = 1): Promise<void> {
  await until(async () => {
    const [{ waiting }] = await db.$queryRaw<{ waiting: number }[]>`
      SELECT count(DISTINCT l."pid")::int AS "waiting"
      FROM pg_locks l JOIN pg_stat_activity a ON a."pid" = l."pid"
      WHERE NOT l."granted" AND a."datname" = current_database()`;
    return waiting >= count;
  }, 30_000); // a hang guard only: the waiter gets there in milliseconds
}

/**
 * A clock reading later than any time stamped before the call, even one PostgreSQL rounded up to
 * its millisecond (timestamp(3) rounds): two milliseconds on from now. Waits a millisecond or two.
 */
export async function laterThanAnyStampSoFar(): Promise<number> {
  const now = Date.now();
  return until(async () => {
    const later = Date.now();
    return later >= now + 2 && later;
  }, 10_000, 1);
}
