/**
 * Scheduled appointments (a minimal model of the product's scheduling): booking with reminders,
 * cancelling with a reason, rescheduling (cancelled, then rebooked), and the reminder job that sends
 * appointment_reminder_due once per reminder, even with two runners.
 */
import { describe, expect, it } from "vitest";
import { dispatchOutboxEvents } from "@/server/domain/webhooks/dispatch";
import { ConflictError, NotFoundError, ValidationError } from "@/server/domain/errors";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { addDoctor, addPatient, meetingEvents } from "@/tests/meetings";
import { cancelAppointment } from "./cancel-appointment";
import { rescheduleAppointment } from "./reschedule-appointment";
import { scheduleAppointment, type ReminderRule } from "./schedule-appointment";
import { PATIENT_NOTICE_HOURS, sendDueAppointmentReminders } from "./send-due-reminders";
import { takeNextPatient } from "./take-next-patient";
import { registerInWaitingRoom } from "./register-in-waiting-room";

const HOUR = 3_600_000;
const inHours = (h: number, from = Date.now()) => new Date(from + h * HOUR);

async function participants(t: Tenant) {
  return { doctorId: (await addDoctor(t)).id, patientId: (await addPatient(t)).id };
}

async function book(t: Tenant, startsAt: Date, reminders: ReminderRule[] = [], durationMinutes = 30) {
  return scheduleAppointment(t.organisation.id, { ...(await participants(t)), startsAt, durationMinutes, reminders });
}

const refusal = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
};

async function reminderEvents(t: Tenant) {
  const rows = await t.db.outboxEvent.findMany({
    where: { organisationId: t.organisation.id, eventType: "appointment_reminder_due" },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((r) => r.data as Record<string, unknown>);
}

describe("scheduleAppointment", () => {
  it("books a confirmed scheduled meeting with its reminders and records change confirmed", async () => {
    const t = await createTenant();
    const startsAt = inHours(48);
    const appointment = await book(t, startsAt, [
      { recipient_role: "patient", minutes_before: 24 * 60 },
      { recipient_role: "doctor", minutes_before: 15 },
      { recipient_role: "patient", minutes_before: 24 * 60 }, // the same reminder twice is one
      { recipient_role: "admin", minutes_before: 72 * 60 }, // already past: not created
    ], 45);
    expect(appointment).toEqual({
      meetingId: expect.any(String),
      startsAt,
      endsAt: new Date(startsAt.getTime() + 45 * 60_000),
      reminders: [
        { recipientRole: "patient", dueAt: new Date(startsAt.getTime() - 24 * HOUR) },
        { recipientRole: "doctor", dueAt: new Date(startsAt.getTime() - 15 * 60_000) },
      ],
    });
    expect(await t.db.meeting.findUniqueOrThrow({ where: { id: appointment.meetingId } })).toMatchObject({
      kind: "SCHEDULED",
      status: "confirmed",
      waitingRoomEntryId: null,
      rebookedFromId: null,
    });
    expect(await meetingEvents(t)).toEqual([{ meeting_uid: appointment.meetingId, change: "confirmed", status: "confirmed" }]);
  });

  it("refuses bad input by field, writing nothing", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const error = await refusal(
      scheduleAppointment(t.organisation.id, {
        doctorId: (await addDoctor(other)).id,
        patientId: "no-such-patient",
        startsAt: inHours(-1),
        durationMinutes: 2,
        reminders: [
          { recipient_role: "pharmacist" as never, minutes_before: 10 },
          { recipient_role: "patient", minutes_before: -5 },
        ],
      }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fields).toEqual({
      starts_at: [expect.any(String)],
      duration_minutes: [expect.any(String)],
      reminders: { "0": { recipient_role: [expect.any(String)] }, "1": { minutes_before: [expect.any(String)] } },
      doctor_uid: ["No doctor with this uid in the organisation."],
      patient_profile_uid: ["No patient profile with this uid in the organisation."],
    });
    expect(await t.db.meeting.count({ where: { organisationId: t.organisation.id } })).toBe(0);
    expect(await meetingEvents(t)).toEqual([]);
  });
});

describe("cancelAppointment", () => {
  it("needs a reason; cancels once (change cancelled, status cancelled), its reminders never sent", async () => {
    const t = await createTenant();
    const appointment = await book(t, inHours(30), [{ recipient_role: "patient", minutes_before: 60 }]);
    for (const reason of ["  ", "x".repeat(1001)]) {
      const error = await refusal(cancelAppointment(t.organisation.id, appointment.meetingId, reason));
      expect((error as ValidationError).fields).toEqual({ reason: [expect.any(String)] });
    }
    expect(await cancelAppointment(t.organisation.id, appointment.meetingId, "Doctor ill")).toEqual({ meetingId: appointment.meetingId, changed: true });
    expect(await cancelAppointment(t.organisation.id, appointment.meetingId, "Again")).toEqual({ meetingId: appointment.meetingId, changed: false });
    expect(await t.db.meeting.findUniqueOrThrow({ where: { id: appointment.meetingId } })).toMatchObject({ status: "cancelled", cancelReason: "Doctor ill" });
    expect(await meetingEvents(t)).toEqual([
      { meeting_uid: appointment.meetingId, change: "confirmed", status: "confirmed" },
      { meeting_uid: appointment.meetingId, change: "cancelled", status: "cancelled" },
    ]);
    await sendDueAppointmentReminders({ now: inHours(29.5) });
    expect(await reminderEvents(t)).toEqual([]);
    expect(await t.db.appointmentReminder.count({ where: { meetingId: appointment.meetingId } })).toBe(0);
  });

  it("finds only the organisation's scheduled appointments", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const appointment = await book(t, inHours(30));
    expect(await refusal(cancelAppointment(other.organisation.id, appointment.meetingId, "x"))).toBeInstanceOf(NotFoundError);
    const doctor = await addDoctor(t);
    await registerInWaitingRoom(t.organisation.id, { shopId: t.shop.id, patientId: (await addPatient(t)).id });
    const onDemand = await takeNextPatient(t.organisation.id, doctor.id);
    expect(await refusal(cancelAppointment(t.organisation.id, onDemand!.meetingId, "x"))).toBeInstanceOf(NotFoundError);
  });
});

describe("rescheduleAppointment", () => {
  it("cancels the old meeting and books a new one that names it: events cancelled then rebooked; the reminders move", async () => {
    const t = await createTenant();
    const old = await book(t, inHours(50), [
      { recipient_role: "patient", minutes_before: 48 * 60 },
      { recipient_role: "doctor", minutes_before: 30 },
    ], 20);
    const startsAt = inHours(100);
    const rebooked = await rescheduleAppointment(t.organisation.id, old.meetingId, { startsAt, reason: "Patient asked" });
    expect(rebooked).toEqual({
      meetingId: expect.any(String),
      startsAt,
      endsAt: new Date(startsAt.getTime() + 20 * 60_000),
      reminders: [
        { recipientRole: "patient", dueAt: new Date(startsAt.getTime() - 48 * HOUR) },
        { recipientRole: "doctor", dueAt: new Date(startsAt.getTime() - 30 * 60_000) },
      ],
    });
    const [oldRow, newRow] = await Promise.all([
      t.db.meeting.findUniqueOrThrow({ where: { id: old.meetingId } }),
      t.db.meeting.findUniqueOrThrow({ where: { id: rebooked.meetingId } }),
    ]);
    expect(oldRow).toMatchObject({ status: "cancelled", cancelReason: "Patient asked" });
    expect(newRow).toMatchObject({ status: "confirmed", kind: "SCHEDULED", rebookedFromId: old.meetingId, doctorId: oldRow.doctorId, patientId: oldRow.patientId });
    expect(await t.db.appointmentReminder.count({ where: { meetingId: old.meetingId } })).toBe(0);
    expect(await meetingEvents(t)).toEqual([
      { meeting_uid: old.meetingId, change: "confirmed", status: "confirmed" },
      { meeting_uid: old.meetingId, change: "cancelled", status: "cancelled" },
      { meeting_uid: rebooked.meetingId, change: "rebooked", status: "confirmed" },
    ]);
    const again = await refusal(rescheduleAppointment(t.organisation.id, old.meetingId, { startsAt: inHours(120), reason: "x" }));
    expect(again).toBeInstanceOf(ConflictError);
  });

  it("rebooks a meeting once under concurrent reschedules", async () => {
    const t = await createTenant();
    const old = await book(t, inHours(50));
    const settled = await Promise.allSettled(
      [60, 70, 80].map((h) => rescheduleAppointment(t.organisation.id, old.meetingId, { startsAt: inHours(h), reason: "move" })),
    );
    expect(settled.filter((s) => s.status === "fulfilled")).toHaveLength(1);
    expect(settled.filter((s) => s.status === "rejected").every((s) => (s as PromiseRejectedResult).reason instanceof ConflictError)).toBe(true);
    expect(await t.db.meeting.count({ where: { rebookedFromId: old.meetingId } })).toBe(1);
    expect((await meetingEvents(t)).map((e) => e.change)).toEqual(["confirmed", "cancelled", "rebooked"]);
  });

  it("refuses a start in the past or another organisation's doctor, changing nothing", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const old = await book(t, inHours(50));
    const past = await refusal(rescheduleAppointment(t.organisation.id, old.meetingId, { startsAt: inHours(-2), reason: "x" }));
    expect((past as ValidationError).fields).toEqual({ starts_at: [expect.any(String)] });
    const foreign = await refusal(
      rescheduleAppointment(t.organisation.id, old.meetingId, { startsAt: inHours(60), doctorId: (await addDoctor(other)).id, reason: "x" }),
    );
    expect((foreign as ValidationError).fields).toEqual({ doctor_uid: [expect.any(String)] });
    expect((await t.db.meeting.findUniqueOrThrow({ where: { id: old.meetingId } })).status).toBe("confirmed");
    expect(await meetingEvents(t)).toHaveLength(1);
  });
});

describe("sendDueAppointmentReminders", () => {
  // The job serves every organisation of the database: each test looks at its own tenant's events.
  it("sends each due reminder once with the spec's payload; the flags only for the patient before the notice period", async () => {
    const t = await createTenant();
    const startsAt = inHours(60);
    const appointment = await book(t, startsAt, [
      { recipient_role: "patient", minutes_before: 48 * 60 },
      { recipient_role: "doctor", minutes_before: 48 * 60 },
      { recipient_role: "patient", minutes_before: 2 * 60 },
    ]);
    const startsAtUnix = Math.floor(startsAt.getTime() / 1000);
    const early = new Date(startsAt.getTime() - 47 * HOUR);
    await sendDueAppointmentReminders({ now: early });
    expect(await reminderEvents(t)).toHaveLength(2);
    await sendDueAppointmentReminders({ now: early });
    expect(await reminderEvents(t)).toHaveLength(2);
    expect(await t.db.appointmentReminder.findMany({ where: { meetingId: appointment.meetingId }, select: { sentAt: true }, orderBy: { dueAt: "asc" } })).toEqual([
      { sentAt: early },
      { sentAt: early },
      { sentAt: null },
    ]);
    const late = new Date(startsAt.getTime() - 1 * HOUR);
    expect(PATIENT_NOTICE_HOURS).toBeGreaterThan(1);
    await sendDueAppointmentReminders({ now: late });
    const events = await reminderEvents(t);
    expect(events).toEqual(
      expect.arrayContaining([
        { appointment_uid: appointment.meetingId, recipient_role: "patient", rebook_allowed: true, cancel_allowed: true, starts_at: startsAtUnix },
        { appointment_uid: appointment.meetingId, recipient_role: "doctor", rebook_allowed: false, cancel_allowed: false, starts_at: startsAtUnix },
      ]),
    );
    expect(events[2]).toEqual({ appointment_uid: appointment.meetingId, recipient_role: "patient", rebook_allowed: false, cancel_allowed: false, starts_at: startsAtUnix });
    expect(await t.db.appointmentReminder.count({ where: { meetingId: appointment.meetingId, sentAt: null } })).toBe(0);
  });

  it("sends once when several runners claim at the same time", async () => {
    const t = await createTenant();
    const appointments = [];
    for (let i = 0; i < 6; i++) {
      appointments.push(
        await book(t, inHours(10 + i * 0.1), [
          { recipient_role: "patient", minutes_before: 60 },
          { recipient_role: "doctor", minutes_before: 60 },
        ]),
      );
    }
    const now = inHours(9.9); // every reminder due, no appointment begun
    await Promise.all([
      sendDueAppointmentReminders({ now, batchSize: 2 }),
      sendDueAppointmentReminders({ now, batchSize: 2 }),
      sendDueAppointmentReminders({ now, batchSize: 3 }),
    ]);
    const sent = (await reminderEvents(t)).map((e) => `${e.appointment_uid}/${e.recipient_role}`);
    expect(sent).toHaveLength(12);
    expect(new Set(sent).size).toBe(12);
    expect(await t.db.appointmentReminder.count({ where: { meetingId: { in: appointments.map((a) => a.meetingId) }, sentAt: null } })).toBe(0);
  });

  it("sends nothing for a rescheduled meeting's old reminders, and drops a reminder that comes due only after its appointment", async () => {
    const t = await createTenant();
    const old = await book(t, inHours(30), [{ recipient_role: "patient", minutes_before: 120 }]);
    const rebooked = await rescheduleAppointment(t.organisation.id, old.meetingId, { startsAt: inHours(40), reason: "move" });
    await sendDueAppointmentReminders({ now: inHours(38.5) });
    expect((await reminderEvents(t)).map((e) => e.appointment_uid)).toEqual([rebooked.meetingId]);

    const missed = await book(t, inHours(5), [{ recipient_role: "doctor", minutes_before: 60 }], 30);
    await sendDueAppointmentReminders({ now: inHours(6) });
    expect(await t.db.appointmentReminder.count({ where: { meetingId: missed.meetingId } })).toBe(0);
    expect(await reminderEvents(t)).toHaveLength(1);
  });

  it("goes to organisation subscriptions through the outbox", async () => {
    const t = await createTenant();
    const sub = await t.db.webhookSubscription.create({
      data: { organisationId: t.organisation.id, scope: "ORGANISATION", notificationType: "appointment_reminder_due", target: "https://93.184.215.14/r", secretEncrypted: "v1.x.y.z" },
    });
    await book(t, inHours(3), [{ recipient_role: "patient", minutes_before: 60 }]);
    await sendDueAppointmentReminders({ now: inHours(2.5) });
    await dispatchOutboxEvents();
    expect(await t.db.webhookDelivery.count({ where: { subscriptionId: sub.id } })).toBe(1);
  });
});
