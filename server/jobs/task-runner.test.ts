import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { reloadConfig } from "@/server/config";
import { database, type Db } from "@/server/db/client";
import { attemptTask, claimDueTasks, taskRetryDelayMs, type TaskHandler, type TaskHandlers } from "@/server/domain/tasks/attempt";
import { enqueueTask, type TaskPayload } from "@/server/domain/tasks/enqueue";
import { TASK_HANDLERS } from "./task-handlers";
import { sleep, until } from "@/tests/wait";
import { TaskRunner } from "./task-runner";


let db: Db;
let runners: TaskRunner[] = [];

beforeAll(async () => {
  process.env.TASK_RETRY_BASE_MS = "20";
  reloadConfig();
  db = await database();
});
afterAll(() => {
  delete process.env.TASK_RETRY_BASE_MS;
  reloadConfig();
});
afterEach(async () => {
  await Promise.all(runners.map((r) => r.stop()));
  runners = [];
  await db.backgroundTask.deleteMany();
});

/** Every task name runs `handler` (the tests only use prescription.render). */
const handlersOf = (handler: TaskHandler): TaskHandlers => ({
  "prescription.render": handler,
  "pharmacy_manager.send_prescription": handler,
  "orders.route_waiting": handler,
  "wallet_pass.push_notification": handler,
  "wallet_pass.updated": handler,
  "mail.send": handler,
  "payout.create_route": handler,
  "shopify.push_tracking": handler,
  "shopify.delete_draft_order": handler,
});

async function startRunner(handler: TaskHandler, pollMs?: number) {
  const runner = new TaskRunner({ mode: "run", handlers: handlersOf(handler), pollMs });
  runners.push(runner);
  await runner.start();
  return runner;
}

const enqueue = (payload: TaskPayload) => db.$transaction((tx) => enqueueTask(tx, "prescription.render", payload));

const finished = (id: string) =>
  until(async () => {
    const task = await db.backgroundTask.findUniqueOrThrow({ where: { id } });
    return task.state !== "PENDING" && task;
  });

describe("background tasks", () => {
  it("exist exactly when the transaction that enqueued them commits, and run at once after the commit", async () => {
    const ran: TaskPayload[] = [];
    // Polling once a minute: only the notification at commit can wake it in time.
    await startRunner(async (payload) => void ran.push(payload), 60_000);
    await sleep(50);

    await expect(
      db.$transaction(async (tx) => {
        await enqueueTask(tx, "prescription.render", { prescriptionId: "rolled-back" });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await db.backgroundTask.count()).toBe(0);

    const id = await enqueue({ prescriptionId: "p-1", n: 1, urgent: true, note: null });
    const task = await finished(id);
    expect(task).toMatchObject({ name: "prescription.render", state: "DONE", attempts: 1, lastError: null, nextAttemptAt: null });
    expect(task.finishedAt).toBeInstanceOf(Date);
    expect(ran).toEqual([{ prescriptionId: "p-1", n: 1, urgent: true, note: null }]);
  });

  it("runs each task once when several runners share the database", async () => {
    const runs = new Map<number, number>();
    const handler: TaskHandler = async (payload) => {
      runs.set(Number(payload.n), (runs.get(Number(payload.n)) ?? 0) + 1);
      await sleep(5);
    };
    await Promise.all([startRunner(handler), startRunner(handler), startRunner(handler)]);
    const ids = await Promise.all(Array.from({ length: 30 }, (_, n) => enqueue({ n })));
    await until(async () => (await db.backgroundTask.count({ where: { id: { in: ids }, state: "DONE" } })) === ids.length);
    expect([...runs.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, n) => n));
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(await db.backgroundTask.findMany({ where: { id: { in: ids } }, select: { attempts: true }, distinct: ["attempts"] })).toEqual([
      { attempts: 1 },
    ]);
  });

  it("retries a failing task with growing delays, recording the error, until it succeeds", async () => {
    const calls: number[] = [];
    const recordedBefore: (string | null)[] = [];
    await startRunner(async () => {
      calls.push(Date.now());
      // What the previous attempt recorded (read here, not by polling: a busy machine can miss a short retry delay).
      recordedBefore.push((await db.backgroundTask.findFirstOrThrow()).lastError);
      if (calls.length < 3) throw new Error(`renderer crashed (${calls.length})`);
    });
    const id = await enqueue({ prescriptionId: "p-2" });
    const task = await finished(id);
    expect(task).toMatchObject({ state: "DONE", attempts: 3, lastError: null });
    expect(recordedBefore).toEqual([null, "renderer crashed (1)", "renderer crashed (2)"]);
    expect(calls[1] - calls[0]).toBeGreaterThanOrEqual(taskRetryDelayMs(1) - 2);
    expect(calls[2] - calls[1]).toBeGreaterThanOrEqual(taskRetryDelayMs(2) - 2);
  });

  it("gives a task up after five failed attempts (FAILED, with the last error)", async () => {
    let calls = 0;
    await startRunner(async () => {
      calls += 1;
      throw new Error(`pharmacy unreachable ${calls}`);
    });
    const id = await enqueue({ prescriptionId: "p-3" });
    const task = await finished(id);
    expect(task).toMatchObject({ state: "FAILED", attempts: 5, maxAttempts: 5, lastError: "pharmacy unreachable 5", nextAttemptAt: null });
    expect(task.finishedAt).toBeInstanceOf(Date);
    await sleep(150);
    expect(calls).toBe(5);
    expect([1, 2, 3, 4].map(taskRetryDelayMs)).toEqual([20, 80, 320, 1280]);
  });

  it("picks a task up again when the process that claimed it died, once its lease has run out", async () => {
    // A process claims two tasks and dies: one before its attempt started, one during it.
    const [beforeAttempt, duringAttempt] = [await enqueue({ n: 1 }), await enqueue({ n: 2 })];
    const claimed = await claimDueTasks(10);
    expect(claimed.map((c) => c.id).sort()).toEqual([beforeAttempt, duringAttempt].sort());
    expect(claimed.every((c) => c.leasedUntil > Date.now() + 60_000)).toBe(true);
    await db.backgroundTask.update({ where: { id: duringAttempt }, data: { attempts: 1 } });

    const ran: unknown[] = [];
    await startRunner(async (payload) => void ran.push(payload.n));
    await sleep(300);
    expect(ran).toEqual([]); // leased: nobody else runs them

    await db.$executeRaw`UPDATE "BackgroundTask" SET "nextAttemptAt" = now() - interval '1 second'`;
    expect(await finished(beforeAttempt)).toMatchObject({ state: "DONE", attempts: 1 });
    expect(await finished(duringAttempt)).toMatchObject({ state: "DONE", attempts: 2 });
    expect(ran.sort()).toEqual([1, 2]);
  });

  it("fails a task whose last attempt never finished, and ignores a stale claim", async () => {
    const id = await enqueue({ n: 1 });
    const [claim] = await claimDueTasks(1);
    await db.$executeRaw`UPDATE "BackgroundTask" SET "attempts" = 5, "nextAttemptAt" = now() - interval '1 second' WHERE "id" = ${id}`;
    // The old claim (attempts 0) no longer matches: it runs nothing.
    let calls = 0;
    const counting = handlersOf(async () => void (calls += 1));
    expect(await attemptTask(claim, counting)).toMatchObject({ attempted: false, state: "PENDING" });
    const [again] = await claimDueTasks(1);
    expect(await attemptTask(again, counting)).toEqual({ state: "FAILED", attempted: true, nextAttemptAt: null });
    expect(calls).toBe(0);
    expect(await db.backgroundTask.findUniqueOrThrow({ where: { id } })).toMatchObject({ attempts: 6, lastError: expect.stringMatching(/did not finish/) });
  });

  it("records a task without a usable payload as an error of its handler", async () => {
    const id = await enqueue({ note: "no prescriptionId" });
    const [claim] = await claimDueTasks(1);
    expect(claim.id).toBe(id);
    expect(await attemptTask(claim, TASK_HANDLERS)).toMatchObject({ state: "PENDING", attempted: true });
    expect((await db.backgroundTask.findUniqueOrThrow({ where: { id } })).lastError).toBe("The task's payload has no prescriptionId.");
  });
});
