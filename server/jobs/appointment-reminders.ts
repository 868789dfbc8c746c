import { sendDueAppointmentReminders, type ReminderRun } from "@/server/domain/meetings/send-due-reminders";
import { log } from "@/server/log";

/** Sends due appointment reminders (appointment_reminder_due) every minute, on Inngest or in-process. */
export const APPOINTMENT_REMINDER_JOB = { id: "appointment-reminders", cron: "* * * * *", everyMs: 60_000 } as const;

export async function runAppointmentReminders(now = new Date()): Promise<ReminderRun> {
  const result = await sendDueAppointmentReminders({ now });
  if (result.sent + result.dropped > 0) log.info("appointment reminders sent", { job: APPOINTMENT_REMINDER_JOB.id, ...result });
  return result;
}
