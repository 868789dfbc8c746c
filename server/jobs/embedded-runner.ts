import { config } from "@/server/config";
import { log } from "@/server/log";
import { APPOINTMENT_REMINDER_JOB, runAppointmentReminders } from "./appointment-reminders";
import { runTallyCompaction, TALLY_COMPACTION_JOB } from "./pharmacy-order-tally";
import { PHARMACY_STATUS_CHECK_JOB, runPharmacyStatusCheck } from "./pharmacy-status-check";
import { jobsProvider } from "./provider";
import { RESERVATION_EXPIRY_JOB, runReservationExpiry } from "./reservation-expiry";
import { runWebhookLogRetention, WEBHOOK_LOG_RETENTION_JOB } from "./webhook-delivery";

export type Job = { id: string; everyMs: number; run: () => Promise<unknown> };

export type ScheduledJob = {
  /** Runs the job now unless a run is still going; says which. */
  tick(): Promise<"ran" | "skipped">;
  stop(): void;
};

/**
 * Runs `job` every `everyMs` in this process. Runs never overlap: a tick that comes while the
 * previous run is still going is skipped. A failing run is logged and the schedule goes on. The
 * timer does not keep the process alive.
 */
export function scheduleJob(job: Job): ScheduledJob {
  let running = false;
  const tick = async (): Promise<"ran" | "skipped"> => {
    if (running) {
      log.warn("background job still running; this run is skipped", { job: job.id });
      return "skipped";
    }
    running = true;
    try {
      await job.run();
    } catch (error) {
      log.error("background job failed", { job: job.id, error });
    } finally {
      running = false;
    }
    return "ran";
  };
  const timer = setInterval(() => void tick(), job.everyMs);
  timer.unref();
  return { tick, stop: () => clearInterval(timer) };
}

/** The jobs that Inngest runs when it is configured (server/jobs/inngest.ts), in the same rhythm. */
export const EMBEDDED_JOBS: Job[] = [
  { id: PHARMACY_STATUS_CHECK_JOB.id, everyMs: PHARMACY_STATUS_CHECK_JOB.everyMs, run: () => runPharmacyStatusCheck() },
  { id: TALLY_COMPACTION_JOB.id, everyMs: TALLY_COMPACTION_JOB.everyMs, run: runTallyCompaction },
  { id: WEBHOOK_LOG_RETENTION_JOB.id, everyMs: WEBHOOK_LOG_RETENTION_JOB.everyMs, run: () => runWebhookLogRetention() },
  {
    id: APPOINTMENT_REMINDER_JOB.id,
    // Read when the schedule starts, not at import: the tick is a setting (APPOINTMENT_REMINDER_TICK_MS).
    get everyMs() {
      return config().APPOINTMENT_REMINDER_TICK_MS;
    },
    run: () => runAppointmentReminders(),
  },
  { id: RESERVATION_EXPIRY_JOB.id, everyMs: RESERVATION_EXPIRY_JOB.everyMs, run: () => runReservationExpiry() },
];

const holder = globalThis as unknown as { __rxEmbeddedJobs?: { stop(): void } };

/**
 * Starts the background jobs in-process unless Inngest drives background work (server/jobs/provider.ts);
 * with Inngest, its cron triggers run them and this does nothing. Starting twice (Next.js dev
 * reloads) keeps the first schedule. Returns a handle to stop them, or null.
 */
export function startEmbeddedJobs(jobs: Job[] = EMBEDDED_JOBS): { stop(): void } | null {
  if (!jobsProvider().scheduledJobsInProcess) {
    log.info("background jobs run on Inngest", { jobs: jobs.map((j) => j.id) });
    return null;
  }
  if (holder.__rxEmbeddedJobs) return holder.__rxEmbeddedJobs;
  const scheduled = jobs.map(scheduleJob);
  const handle = {
    stop() {
      for (const job of scheduled) job.stop();
      if (holder.__rxEmbeddedJobs === handle) holder.__rxEmbeddedJobs = undefined;
    },
  };
  holder.__rxEmbeddedJobs = handle;
  log.info("background jobs run in-process", { jobs: jobs.map((j) => `${j.id} every ${j.everyMs / 1000}s`) });
  return handle;
}

/** Stops the in-process schedule, if any (graceful shutdown). */
export function stopEmbeddedJobs(): void {
  holder.__rxEmbeddedJobs?.stop();
}
