import { database } from "@/server/db/client";
import { recordAppointmentReminderDue } from "@/server/domain/events/organisation-events";
import type { ReminderRecipientRole } from "./statuses";
import { APPOINTMENT_STATUS } from "./statuses";

/**
 * The patient may rebook or cancel an appointment themselves until this long before its start; a
 * reminder sent later tells them they no longer can (rebook_allowed, cancel_allowed false). Reminders
 * to the doctor or the admins never offer it (the spec's rule).
 */
export const PATIENT_NOTICE_HOURS = 24;

type Claimed = {
  id: string;
  recipientRole: ReminderRecipientRole;
  meetingId: string;
  organisationId: string;
  status: string | null;
  startsAt: Date;
  endsAt: Date | null;
};

export type ReminderRun = { sent: number; dropped: number };

/**
 * Sends the reminders that are due (dueAt reached, not sent): for each, appointment_reminder_due
 * with the data of that moment, and sentAt, in one transaction per batch. Claims are FOR UPDATE
 * SKIP LOCKED on the reminder and its meeting, so two runners never send one reminder twice, and a
 * reminder whose meeting is being cancelled or rescheduled right now waits for the next run (where
 * it is gone). A due reminder whose appointment is no longer confirmed or already over is dropped
 * (deleted) without an event: it can only come from a job that was down.
 * A short batch does not end the run: its rows may have been skipped only because another runner
 * held their meeting, and that runner may already be done; the run ends on an empty claim.
 */
export async function sendDueAppointmentReminders(
  options: { now?: Date; batchSize?: number; maxBatches?: number } = {},
): Promise<ReminderRun> {
  const { now = new Date(), batchSize = 100, maxBatches = 20 } = options;
  const db = await database();
  const run: ReminderRun = { sent: 0, dropped: 0 };
  for (let batch = 0; batch < maxBatches; batch++) {
    const claimed = await db.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<Claimed[]>`
          SELECT r."id", r."recipientRole", m."id" AS "meetingId", m."organisationId", m."status", m."startsAt", m."endsAt"
            FROM "AppointmentReminder" r JOIN "Meeting" m ON m."id" = r."meetingId"
           WHERE r."sentAt" IS NULL AND r."dueAt" <= ${now}::timestamptz
           ORDER BY r."dueAt", r."id"
           LIMIT ${batchSize}
             FOR UPDATE OF r, m SKIP LOCKED`;
        const sent: string[] = [];
        const dropped: string[] = [];
        for (const raw of rows) {
          // Timestamps of a raw row arrive as Date or text depending on the driver.
          const row = { ...raw, startsAt: new Date(raw.startsAt), endsAt: raw.endsAt === null ? null : new Date(raw.endsAt) };
          const over = (row.endsAt ?? row.startsAt) <= now;
          if (row.status !== APPOINTMENT_STATUS.confirmed || over) {
            dropped.push(row.id);
            continue;
          }
          const patientMayChange = row.recipientRole === "patient" && row.startsAt.getTime() - now.getTime() > PATIENT_NOTICE_HOURS * 3_600_000;
          await recordAppointmentReminderDue(tx, row.organisationId, {
            appointment_uid: row.meetingId,
            recipient_role: row.recipientRole,
            rebook_allowed: patientMayChange,
            cancel_allowed: patientMayChange,
            starts_at: Math.floor(row.startsAt.getTime() / 1000),
          });
          sent.push(row.id);
        }
        if (sent.length > 0) await tx.appointmentReminder.updateMany({ where: { id: { in: sent } }, data: { sentAt: now } });
        if (dropped.length > 0) await tx.appointmentReminder.deleteMany({ where: { id: { in: dropped } } });
        return { rows: rows.length, sent: sent.length, dropped: dropped.length };
      },
      { timeout: 30_000, maxWait: 30_000 },
    );
    run.sent += claimed.sent;
    run.dropped += claimed.dropped;
    if (claimed.rows === 0) break;
  }
  return run;
}
