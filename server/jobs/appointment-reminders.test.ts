/** The appointment reminder job on both drivers: the embedded runner's schedule and Inngest's cron function. */
import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { parseConfig, reloadConfig } from "@/server/config";
import { scheduleAppointment } from "@/server/domain/meetings/schedule-appointment";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { addDoctor, addPatient } from "@/tests/meetings";
import { APPOINTMENT_REMINDER_JOB, runAppointmentReminders } from "./appointment-reminders";
import { EMBEDDED_JOBS, scheduleJob } from "./embedded-runner";
import { appointmentReminders } from "./inngest";

/** An appointment starting soon whose patient reminder is already due (booked as if an hour ago). */
async function dueReminder(t: Tenant) {
  const startsAt = new Date(Date.now() + 30 * 60_000);
  const { meetingId } = await scheduleAppointment(
    t.organisation.id,
    { doctorId: (await addDoctor(t)).id, patientId: (await addPatient(t)).id, startsAt, durationMinutes: 30, reminders: [{ recipient_role: "patient", minutes_before: 60 }] },
    undefined,
    new Date(Date.now() - 60 * 60_000),
  );
  return meetingId;
}

async function sentFor(t: Tenant, meetingId: string) {
  const events = await t.db.outboxEvent.findMany({ where: { organisationId: t.organisation.id, eventType: "appointment_reminder_due", subjectId: meetingId } });
  return events.map((e) => e.data);
}

describe("appointment reminder job", () => {
  it("is scheduled every minute in-process and as an Inngest cron", () => {
    expect(EMBEDDED_JOBS.find((j) => j.id === APPOINTMENT_REMINDER_JOB.id)?.everyMs).toBe(60_000);
    expect(appointmentReminders.opts).toMatchObject({ id: "appointment-reminders", triggers: [{ cron: "* * * * *" }], singleton: { mode: "skip" } });
  });

  it("ticks in-process as often as APPOINTMENT_REMINDER_TICK_MS says, read when the schedule starts", () => {
    expect(() => parseConfig({ APPOINTMENT_REMINDER_TICK_MS: "0" })).toThrow(/APPOINTMENT_REMINDER_TICK_MS/);
    process.env.APPOINTMENT_REMINDER_TICK_MS = "1500";
    reloadConfig();
    try {
      expect(EMBEDDED_JOBS.find((j) => j.id === APPOINTMENT_REMINDER_JOB.id)?.everyMs).toBe(1500);
    } finally {
      delete process.env.APPOINTMENT_REMINDER_TICK_MS;
      reloadConfig();
    }
    expect(EMBEDDED_JOBS.find((j) => j.id === APPOINTMENT_REMINDER_JOB.id)?.everyMs).toBe(60_000);
  });

  it("sends due reminders on the embedded runner's tick, once", async () => {
    const t = await createTenant();
    const meetingId = await dueReminder(t);
    const job = scheduleJob(EMBEDDED_JOBS.find((j) => j.id === APPOINTMENT_REMINDER_JOB.id)!);
    try {
      // Two periods' runs: the second finds the reminder sent.
      const now = Date.now();
      expect(await job.tick(new Date(now))).toBe("ran");
      expect(await job.tick(new Date(now + 60_000))).toBe("ran");
    } finally {
      await job.stop();
    }
    expect(await sentFor(t, meetingId)).toEqual([
      { appointment_uid: meetingId, recipient_role: "patient", rebook_allowed: false, cancel_allowed: false, starts_at: expect.any(Number) },
    ]);
  });

  it("sends due reminders when Inngest invokes the function, and when called directly", async () => {
    const t = await createTenant();
    const viaInngest = await dueReminder(t);
    const { result } = await new InngestTestEngine({ function: appointmentReminders }).execute();
    expect(result).toMatchObject({ sent: expect.any(Number) });
    expect(await sentFor(t, viaInngest)).toHaveLength(1);

    const direct = await dueReminder(t);
    expect((await runAppointmentReminders()).sent).toBeGreaterThanOrEqual(1);
    expect(await sentFor(t, direct)).toHaveLength(1);
    expect(await sentFor(t, viaInngest)).toHaveLength(1);
  });
});
