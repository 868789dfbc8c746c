import { config } from "@/server/config";
import { database, type Db } from "@/server/db/client";
import { log } from "@/server/log";
import type { TaskName, TaskPayload } from "./enqueue";

/** Which attempt of its task a handler runs: the last one may record a final failure (a push notification's failed). */
export type TaskAttempt = { number: number; last: boolean };

/** Runs one task. Must be idempotent: a task runs again after a failure, a crash or a lost lease. */
export type TaskHandler = (payload: TaskPayload, attempt: TaskAttempt) => Promise<void>;
export type TaskHandlers = Record<TaskName, TaskHandler>;

/** A due task leased to this process (or announced to Inngest); `attempts` is its count before this attempt. */
export type ClaimedTask = { id: string; name: string; attempts: number; leasedUntil: number };

export type TaskOutcome = { state: "PENDING" | "DONE" | "FAILED"; attempted: boolean; nextAttemptAt: number | null };

/**
 * While a task is claimed or running, nextAttemptAt is a lease: if the process dies (or an announced
 * Inngest run never starts), the task becomes due again when it runs out. Handlers finish well
 * within it; one that runs longer may be started a second time elsewhere.
 */
const TASK_LEASE_MS = 2 * 60_000;
const MAX_RETRY_DELAY_MS = 60 * 60_000;

/** Delay after failed attempt n: TASK_RETRY_BASE_MS × 4^(n−1) (5 s, 20 s, 80 s, 320 s by default). */
export function taskRetryDelayMs(attemptNumber: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, config().TASK_RETRY_BASE_MS * 4 ** Math.max(0, attemptNumber - 1));
}

/**
 * Claims up to `limit` due tasks, oldest due first (FOR UPDATE SKIP LOCKED: processes sharing one
 * database never claim the same task), leasing each for TASK_LEASE_MS.
 */
export async function claimDueTasks(limit: number): Promise<ClaimedTask[]> {
  const db = await database();
  if (limit <= 0) return [];
  const rows = await db.$queryRaw<{ id: string; name: string; attempts: number; leasedUntil: Date }[]>`
    UPDATE "BackgroundTask"
       SET "nextAttemptAt" = now() + ${TASK_LEASE_MS} * interval '1 millisecond', "updatedAt" = now()
     WHERE "id" IN (SELECT "id" FROM "BackgroundTask"
                     WHERE "state" = 'PENDING' AND "nextAttemptAt" <= now()
                     ORDER BY "nextAttemptAt"
                     LIMIT ${limit}
                       FOR UPDATE SKIP LOCKED)
 RETURNING "id", "name", "attempts", "nextAttemptAt" AS "leasedUntil"`;
  return rows.map((r) => ({ id: r.id, name: r.name, attempts: r.attempts, leasedUntil: new Date(r.leasedUntil).getTime() }));
}

/**
 * Makes the attempt of a claimed task: counts it, runs the handler, and records the outcome (DONE;
 * or the error and a retry after taskRetryDelayMs; FAILED after maxAttempts). The attempt starts
 * only while the task is still pending with the count it was claimed with, so one claim (announced
 * twice, or run after its lease was taken over) runs at most once. A handler's error is recorded,
 * not thrown.
 */
export async function attemptTask(claimed: Pick<ClaimedTask, "id" | "attempts">, handlers: TaskHandlers): Promise<TaskOutcome> {
  const db = await database();
  const [task] = await db.$queryRaw<{ id: string; name: string; attempts: number; maxAttempts: number }[]>`
    UPDATE "BackgroundTask"
       SET "attempts" = "attempts" + 1, "nextAttemptAt" = now() + ${TASK_LEASE_MS} * interval '1 millisecond', "updatedAt" = now()
     WHERE "id" = ${claimed.id} AND "state" = 'PENDING' AND "attempts" = ${claimed.attempts}
 RETURNING "id", "name", "attempts", "maxAttempts"`;
  if (!task) return { ...(await taskState(db, claimed.id)), attempted: false };

  let error: unknown = null;
  if (task.attempts > task.maxAttempts) {
    error = new Error("The last attempt did not finish (its process stopped, or it outlived its lease).");
  } else {
    try {
      const handler = handlers[task.name as TaskName];
      if (!handler) throw new Error(`No handler for background task ${task.name}`);
      const { payload } = await db.backgroundTask.findUniqueOrThrow({ where: { id: task.id }, select: { payload: true } });
      await handler(payload as TaskPayload, { number: task.attempts, last: task.attempts >= task.maxAttempts });
    } catch (caught) {
      error = caught;
    }
  }

  const current = { id: task.id, attempts: task.attempts, state: "PENDING" as const };
  if (error === null) {
    await db.backgroundTask.updateMany({
      where: current,
      data: { state: "DONE", nextAttemptAt: null, lastError: null, finishedAt: new Date() },
    });
    return { state: "DONE", attempted: true, nextAttemptAt: null };
  }
  const lastError = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
  if (task.attempts >= task.maxAttempts) {
    await db.backgroundTask.updateMany({ where: current, data: { state: "FAILED", nextAttemptAt: null, lastError, finishedAt: new Date() } });
    log.error("background task failed for good", { taskId: task.id, task: task.name, attempts: task.attempts, error });
    return { state: "FAILED", attempted: true, nextAttemptAt: null };
  }
  const nextAttemptAt = new Date(Date.now() + taskRetryDelayMs(task.attempts));
  await db.backgroundTask.updateMany({ where: current, data: { nextAttemptAt, lastError } });
  log.warn("background task failed; it will be retried", { taskId: task.id, task: task.name, attempt: task.attempts, nextAttemptAt, error });
  return { state: "PENDING", attempted: true, nextAttemptAt: nextAttemptAt.getTime() };
}

async function taskState(db: Db, id: string): Promise<Omit<TaskOutcome, "attempted">> {
  const row = await db.backgroundTask.findUnique({ where: { id }, select: { state: true, nextAttemptAt: true } });
  if (!row) return { state: "FAILED", nextAttemptAt: null };
  return { state: row.state, nextAttemptAt: row.nextAttemptAt?.getTime() ?? null };
}

/** Milliseconds until the earliest pending task is due (0 when one is due now), or null when none is pending. */
export async function msUntilNextTaskDue(): Promise<number | null> {
  const db = await database();
  const [row] = await db.$queryRaw<{ ms: number | null }[]>`
    SELECT (extract(epoch FROM min("nextAttemptAt") - now()) * 1000)::float8 AS "ms"
      FROM "BackgroundTask" WHERE "state" = 'PENDING'`;
  return row?.ms === null || row?.ms === undefined ? null : Math.max(0, Math.ceil(row.ms));
}

/** Deletes tasks that finished (DONE or FAILED) before `olderThan`, in batches; pending ones are never touched. */
export async function pruneFinishedTasks(olderThan: Date, batchSize = 1000): Promise<number> {
  const db = await database();
  let total = 0;
  for (;;) {
    const deleted = await db.$executeRaw`
      DELETE FROM "BackgroundTask" WHERE "id" IN (
        SELECT "id" FROM "BackgroundTask"
         WHERE "state" IN ('DONE', 'FAILED') AND "finishedAt" < ${olderThan}
         LIMIT ${batchSize})`;
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
