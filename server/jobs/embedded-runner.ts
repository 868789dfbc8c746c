import os from "node:os";
import { config } from "@/server/config";
import { claimPeriod, msToNextPeriod } from "@/server/domain/scheduled-jobs/claim-period";
import { log } from "@/server/log";
import { APPOINTMENT_REMINDER_JOB, runAppointmentReminders } from "./appointment-reminders";
import { DOCTOR_REQUEST_NOTICE_JOB, runDoctorRequestNotices } from "./doctor-request-notices";
import { runTallyCompaction, TALLY_COMPACTION_JOB } from "./pharmacy-order-tally";
import { PHARMACY_STATUS_CHECK_JOB, runPharmacyStatusCheck } from "./pharmacy-status-check";
import { jobsProvider } from "./provider";
import { RESERVATION_EXPIRY_JOB, runReservationExpiry } from "./reservation-expiry";
import { runWebhookLogRetention, WEBHOOK_LOG_RETENTION_JOB } from "./webhook-delivery";

export type Job = { id: string; everyMs: number; run: () => Promise<unknown> };

export type ScheduledJob = {
  /**
   * Runs the job for the period `at` falls in, unless a run of this process is still going, or the
   * claim could not be made (both logged: "skipped"), or that period's run was claimed already, by
   * this process or another on the same database ("taken").
   */
  tick(at?: Date): Promise<"ran" | "skipped" | "taken">;
  /** Stops the schedule and waits for a run in flight. */
  stop(): Promise<void>;
};

/** Who claimed a period, as the lease row names it: this process on this machine. */
const HOLDER = `${os.hostname()}:${process.pid}`;

/**
 * Runs `job` once per period of `everyMs` (the multiples of it since the epoch), at the start of each
 * period, in this process and across processes: each run first claims its period in the database
 * (claimPeriod, the job's lease row), so background-work processes on several machines sharing the
 * database run the job once per period between them. Runs of this process never overlap: a tick
 * while the previous run is still going is skipped, leaving the period to another process. A
 * failing run is logged and the schedule goes on. The timer does not keep the process alive.
 */
export function scheduleJob(job: Job): ScheduledJob {
  const periodMs = job.everyMs;
  let running: Promise<unknown> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const claimAndRun = async (at: Date): Promise<"ran" | "skipped" | "taken"> => {
    try {
      if (!(await claimPeriod({ jobId: job.id, periodMs, at, holder: HOLDER }))) return "taken";
    } catch (error) {
      log.error("background job could not claim its period; this run is skipped", { job: job.id, error });
      return "skipped";
    }
    try {
      await job.run();
    } catch (error) {
      log.error("background job failed", { job: job.id, error });
    }
    return "ran";
  };
  const tick = async (at = new Date()): Promise<"ran" | "skipped" | "taken"> => {
    if (running) {
      log.warn("background job still running; this run is skipped", { job: job.id });
      return "skipped";
    }
    const run = claimAndRun(at);
    running = run;
    try {
      return await run;
    } finally {
      running = null;
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      schedule();
      void tick();
    }, msToNextPeriod(new Date(), periodMs));
    timer.unref();
  };
  schedule();
  return {
    tick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
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
  { id: DOCTOR_REQUEST_NOTICE_JOB.id, everyMs: DOCTOR_REQUEST_NOTICE_JOB.everyMs, run: () => runDoctorRequestNotices() },
];

const holder = globalThis as unknown as { __rxEmbeddedJobs?: { stop(): Promise<void> } };

/**
 * Starts the background jobs in-process unless Inngest drives background work (server/jobs/provider.ts);
 * with Inngest, its cron triggers run them and this does nothing. Starting twice (Next.js dev
 * reloads) keeps the first schedule. SCHEDULED_JOB_PERIOD_MS, when set, is every job's period.
 * Returns a handle to stop them, or null.
 */
export function startEmbeddedJobs(jobs: Job[] = EMBEDDED_JOBS): { stop(): Promise<void> } | null {
  if (!jobsProvider().scheduledJobsInProcess) {
    log.info("background jobs run on Inngest", { jobs: jobs.map((j) => j.id) });
    return null;
  }
  if (holder.__rxEmbeddedJobs) return holder.__rxEmbeddedJobs;
  const period = config().SCHEDULED_JOB_PERIOD_MS;
  const periodic = jobs.map((job) => (period ? { ...job, everyMs: period } : job));
  const scheduled = periodic.map(scheduleJob);
  const handle = {
    async stop() {
      if (holder.__rxEmbeddedJobs === handle) holder.__rxEmbeddedJobs = undefined;
      await Promise.all(scheduled.map((job) => job.stop()));
    },
  };
  holder.__rxEmbeddedJobs = handle;
  log.info("background jobs run in-process, each once per period across processes", {
    jobs: periodic.map((j) => `${j.id} every ${j.everyMs / 1000}s`),
  });
  return handle;
}

/** Stops the in-process schedule, if any, and waits for runs in flight (graceful shutdown). */
export async function stopEmbeddedJobs(): Promise<void> {
  await holder.__rxEmbeddedJobs?.stop();
}
