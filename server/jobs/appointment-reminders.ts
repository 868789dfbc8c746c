import { sendDueAppointmentReminders, type ReminderRun } from "@/server/domain/meetings/send-due-reminders";
import { log } from "@/server/log";

/**
 * Sends due appointment reminders (appointment_reminder_due) every minute on Inngest, and in-process
 * every APPOINTMENT_REMINDER_TICK_MS (a minute unless configured: server/config.ts).
 */
export const APPOINTMENT_REMINDER_JOB = { id: "appointment-reminders", cron: "* * * * *" } as const;

export async function runAppointmentReminders(now = new Date()): Promise<ReminderRun> {
  const result = await sendDueAppointmentReminders({ now });
  if (result.sent + result.dropped > 0) log.info("appointment reminders sent", { job: APPOINTMENT_REMINDER_JOB.id, ...result });
  return result;
}
