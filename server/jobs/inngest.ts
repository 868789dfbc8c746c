import { cron } from "inngest";
import { config } from "@/server/config";
import { attemptTask } from "@/server/domain/tasks/attempt";
import type { TaskName } from "@/server/domain/tasks/enqueue";
import { APPOINTMENT_REMINDER_JOB, runAppointmentReminders } from "./appointment-reminders";
import { inngest } from "./inngest-client";
import { runTallyCompaction, TALLY_COMPACTION_JOB } from "./pharmacy-order-tally";
import { PHARMACY_STATUS_CHECK_JOB, runPharmacyStatusCheck } from "./pharmacy-status-check";
import { RESERVATION_EXPIRY_JOB, runReservationExpiry } from "./reservation-expiry";
import { DOCTOR_REQUEST_NOTICE_JOB, runDoctorRequestNotices } from "./doctor-request-notices";
import { TASK_HANDLERS } from "./task-handlers";
import { announceDueTasks, taskDue } from "./task-runner";
import {
  attemptWebhookDelivery,
  runWebhookLogRetention,
  sweepOverdueDeliveries,
  WEBHOOK_LOG_RETENTION_JOB,
  webhookDeliveryDue,
} from "./webhook-delivery";

export { inngest };

/**
 * A scheduled job as an Inngest cron function, on the same schedule as the embedded runner. A tick
 * while a run is still going is skipped; the next tick is the retry (each job changes nothing
 * half-way: one transaction per order or statement).
 */
function cronFunction(job: { id: string; cron: string }, name: string, run: () => Promise<unknown>) {
  return inngest.createFunction(
    { id: job.id, name, triggers: [cron(job.cron)], singleton: { mode: "skip" }, retries: 1 },
    async ({ step }) => step.run(job.id, run),
  );
}

export const pharmacyStatusCheck = cronFunction(PHARMACY_STATUS_CHECK_JOB, "Pharmacy status check", () => runPharmacyStatusCheck());
export const pharmacyOrderTallyCompaction = cronFunction(TALLY_COMPACTION_JOB, "Pharmacy order tally compaction", runTallyCompaction);
export const webhookLogRetention = cronFunction(WEBHOOK_LOG_RETENTION_JOB, "Webhook log retention", () => runWebhookLogRetention());
export const appointmentReminders = cronFunction(APPOINTMENT_REMINDER_JOB, "Appointment reminders", () => runAppointmentReminders());
export const reservationExpiry = cronFunction(RESERVATION_EXPIRY_JOB, "Reservation expiry", () => runReservationExpiry());
export const doctorRequestNotices = cronFunction(DOCTOR_REQUEST_NOTICE_JOB, "New-request e-mails to doctors", () => runDoctorRequestNotices());
const webhookDeliverySweep = cronFunction(
  { id: "webhook-delivery-sweep", cron: "*/5 * * * *" },
  "Re-announce overdue webhook deliveries",
  () => sweepOverdueDeliveries(),
);

/** Safety net for a run that never ends its loop; a delivery has maxAttempts (5, +5 per re-send) attempts. */
const MAX_STEPS = 100;

/**
 * The attempts of one delivery: an attempt in a step, then a sleep until the next attempt is due,
 * until it succeeds or is dropped. Each step claims the attempt in the database first, so the same
 * delivery announced twice is still attempted once per round. At most WEBHOOK_SUBSCRIPTION_CONCURRENCY
 * attempts run at once per subscription and WEBHOOK_TARGET_CONCURRENCY per target origin (sleeping runs hold no slot).
 */
export const deliverWebhook = inngest.createFunction(
  {
    id: "deliver-webhook",
    name: "Deliver a webhook",
    triggers: [webhookDeliveryDue],
    retries: 3,
    concurrency: [
      { key: "event.data.subscriptionId", limit: config().WEBHOOK_SUBSCRIPTION_CONCURRENCY },
      { key: "event.data.origin", limit: config().WEBHOOK_TARGET_CONCURRENCY },
    ],
  },
  async ({ event, step }) => {
    for (let i = 1; i <= MAX_STEPS; i++) {
      const result = await step.run(`attempt-${i}`, () => attemptWebhookDelivery(event.data.deliveryId));
      if (result.state !== "PENDING" || result.nextAttemptAt === null) return result;
      await step.sleepUntil(`wait-${i}`, new Date(result.nextAttemptAt));
    }
    return null;
  },
);

/**
 * One attempt of a background task per event (announced by a task runner or the sweep below, after
 * leasing it). The attempt records its own outcome; a failed one is retried on the task's schedule
 * (TASK_RETRY_BASE_MS × 4^(n−1), 5 attempts) by announcing it again when it is due, so the attempts
 * and their errors are in the database as in embedded mode. Inngest's retries only cover a step that
 * could not reach the database.
 */
function backgroundTaskFunction(name: TaskName) {
  return inngest.createFunction(
    { id: `task-${name.replace(/[._]+/g, "-")}`, name: `Background task ${name}`, triggers: [taskDue(name)], retries: 2 },
    async ({ event, step }) =>
      step.run("attempt", async () => attemptTask({ id: event.data.taskId, attempts: event.data.attempts }, TASK_HANDLERS)),
  );
}

export const renderPrescriptionTask = backgroundTaskFunction("prescription.render");
const sendPrescriptionTask = backgroundTaskFunction("pharmacy_manager.send_prescription");
const routeWaitingTask = backgroundTaskFunction("orders.route_waiting");
const walletPassPushTask = backgroundTaskFunction("wallet_pass.push_notification");
const walletPassUpdatedTask = backgroundTaskFunction("wallet_pass.updated");
const sendMailTask = backgroundTaskFunction("mail.send");
const createPayoutRouteTask = backgroundTaskFunction("payout.create_route");
export const backgroundTaskSweep = cronFunction(
  { id: "background-task-sweep", cron: "* * * * *" },
  "Announce due background tasks",
  () => announceDueTasks(),
);

export const inngestFunctions = [
  pharmacyStatusCheck,
  pharmacyOrderTallyCompaction,
  webhookLogRetention,
  appointmentReminders,
  reservationExpiry,
  doctorRequestNotices,
  webhookDeliverySweep,
  deliverWebhook,
  renderPrescriptionTask,
  sendPrescriptionTask,
  routeWaitingTask,
  walletPassPushTask,
  walletPassUpdatedTask,
  sendMailTask,
  createPayoutRouteTask,
  backgroundTaskSweep,
];
