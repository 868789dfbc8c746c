import { eventType, staticSchema } from "inngest";
import { attemptTask, claimDueTasks, msUntilNextTaskDue, type ClaimedTask, type TaskHandlers } from "@/server/domain/tasks/attempt";
import type { TaskName } from "@/server/domain/tasks/enqueue";
import { log } from "@/server/log";
import { inngest } from "./inngest-client";
import { PollingRunner } from "./polling-runner";
import { jobsProvider } from "./provider";
import { TASK_HANDLERS } from "./task-handlers";

/** Fallback poll: catches retries coming due, expired leases, and notifications missed while reconnecting. */
const POLL_MS = 1_000;
const TASK_CHANNEL = "rx_tasks";
/** Tasks running at once in one process. Rendering is CPU-bound: more would only queue on the event loop. */
const CONCURRENCY = 4;
/** Tasks announced to Inngest per pass. */
const ANNOUNCE_BATCH = 100;

/** The Inngest event that asks for one attempt of a task (one event name, and one function, per task name). */
export const taskDue = <N extends TaskName>(name: N) =>
  eventType(`rx/task.${name}`, { schema: staticSchema<{ taskId: string; attempts: number }>() });

/**
 * Announces due tasks to Inngest, one event per attempt; each is leased first, so an announcement
 * that gets lost is made again when its lease runs out (by a runner, or by the Inngest sweep).
 */
export async function announceDueTasks(): Promise<{ announced: number }> {
  let announced = 0;
  for (let batch = 0; batch < 10; batch++) {
    const claimed = await claimDueTasks(ANNOUNCE_BATCH);
    if (claimed.length === 0) break;
    await inngest.send(
      claimed.map((t) => ({
        id: `rx-task-${t.id}-${t.attempts}-${t.leasedUntil}`,
        name: taskDue(t.name as TaskName).name,
        data: { taskId: t.id, attempts: t.attempts },
      })),
    );
    announced += claimed.length;
  }
  return { announced };
}

export type TaskRunnerOptions = {
  /** "run": attempt tasks in this process (embedded mode); "announce": hand each attempt to Inngest. */
  mode: "run" | "announce";
  handlers?: TaskHandlers;
  /** Fallback poll interval (tests lengthen it to show that the notification wakes the runner). */
  pollMs?: number;
};

/**
 * The background task runner of one process, woken by the rx_tasks notification when a task
 * commits and by a poll. It claims due tasks (FOR UPDATE SKIP LOCKED, with a lease) and runs them
 * here, at most CONCURRENCY at once, or announces them to Inngest. All state is in the database: a
 * killed process loses nothing; its tasks become due again when their leases run out.
 */
export class TaskRunner extends PollingRunner {
  private readonly handlers: TaskHandlers;

  constructor(private readonly options: TaskRunnerOptions) {
    super({ channel: TASK_CHANNEL, pollMs: options.pollMs ?? POLL_MS, name: "task runner" });
    this.handlers = options.handlers ?? TASK_HANDLERS;
  }

  protected async pass(): Promise<number> {
    if (this.options.mode === "announce") await announceDueTasks();
    else for (const task of await claimDueTasks(CONCURRENCY - this.inFlight)) this.run(task);
    // Full: a finishing task wakes the runner. Otherwise sleep until the next retry or lease end is due.
    if (this.options.mode === "run" && this.inFlight >= CONCURRENCY) return this.pollMs;
    return Math.min(this.pollMs, Math.max(5, (await msUntilNextTaskDue()) ?? this.pollMs));
  }

  private run(task: ClaimedTask): void {
    this.track(
      attemptTask(task, this.handlers).then(
        () => undefined,
        (error: unknown) => log.error("background task could not be attempted", { taskId: task.id, error }),
      ),
    );
  }
}

const holder = globalThis as unknown as { __rxTaskRunner?: TaskRunner };

/** Starts this process's task runner (once): it runs the tasks, or with Inngest announces them (server/jobs/provider.ts). */
export async function startTaskRunner(): Promise<TaskRunner> {
  if (holder.__rxTaskRunner) return holder.__rxTaskRunner;
  const mode = jobsProvider().taskMode;
  const runner = new TaskRunner({ mode });
  holder.__rxTaskRunner = runner;
  await runner.start();
  log.info("background task runner started", { mode });
  return runner;
}


/** Stops this process's task runner, if it runs here (graceful shutdown): waits for its tasks in flight. */
export async function stopTaskRunner(): Promise<void> {
  const runner = holder.__rxTaskRunner;
  holder.__rxTaskRunner = undefined;
  await runner?.stop();
}
