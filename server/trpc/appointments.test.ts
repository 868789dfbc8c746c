/**
 * Appointments in the portals over tRPC, on a real database: the admin tool's door (any doctor of
 * the organisation) and the doctors' workspace's (the doctor's own), both on the same domain
 * functions. Who may call, what each door reaches (another doctor's or organisation's appointment is
 * not found, nothing written), the list of a day or a week, scheduling with reminders that the
 * reminder job sends, rescheduling (cancelled, then rebooked) and cancelling with a reason, a double
 * cancel that records one event, the audit entries, and the refusals in German and English.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { sendDueAppointmentReminders } from "@/server/domain/meetings/send-due-reminders";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { addDoctor, addPatient, meetingEvents } from "@/tests/meetings";
import { trpcCode } from "@/tests/trpc";
import { createPortalUser } from "@/tests/webhook-logs";
import { handleTrpcRequest } from "./handler";
import { createCaller } from "./router";

const MINUTE = 60;
const HOUR = 3600;
/** One clock for the whole file: every time below is a whole minute some hours from now. */
const NOW = Math.ceil(Date.now() / 1000 / MINUTE) * MINUTE;
const inHours = (h: number) => NOW + h * HOUR;

let t: Tenant;
let other: Tenant;
let doctor: { id: string };
let colleague: { id: string };
let patient: { id: string };
let foreignPatient: { id: string };
let foreignDoctor: { id: string };
let admin: PortalSessionUser;
let me: PortalSessionUser;
let colleagueUser: PortalSessionUser;
let pharmacist: PortalSessionUser;
let otherAdmin: PortalSessionUser;
let otherDoctorUser: PortalSessionUser;

const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  doctor = await addDoctor(t, "Dr. Anna Weber");
  colleague = await addDoctor(t, "Dr. Kollege");
  foreignDoctor = await addDoctor(other, "Dr. Fremd");
  patient = await t.db.patientProfile.create({
    data: { organisationId: t.organisation.id, displayName: "Erika Termin", firstName: "Erika", lastName: "Termin", email: "erika.termin@example.com" },
  });
  foreignPatient = await addPatient(other, "Fremde Patientin");
  admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
  me = await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id, doctorId: doctor.id });
  colleagueUser = await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id, doctorId: colleague.id });
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
  otherAdmin = await createPortalUser(other.db, { role: "ADMIN", organisationId: other.organisation.id });
  otherDoctorUser = await createPortalUser(other.db, { role: "DOCTOR", organisationId: other.organisation.id, doctorId: foreignDoctor.id });
});

/** An appointment booked by the admin tool for `doctorId`, starting `hours` from now. */
async function booked(doctorId: string, hours: number, reminders: { recipientRole: "patient" | "doctor" | "admin"; minutesBefore: number }[] = []) {
  return as(admin).admin.appointments.schedule({ patientProfileUid: patient.id, doctorUid: doctorId, startsAt: inHours(hours), durationMinutes: 30, reminders });
}

/** A refused call's tRPC code and the domain's field messages (English, as thrown). */
const refusalOf = (error: unknown) => error as { code: string; cause: { fields: unknown } };

const meeting = (id: string) => t.db.meeting.findUniqueOrThrow({ where: { id } });
const auditOf = (entityId: string) =>
  t.db.auditEvent.findMany({ where: { organisationId: t.organisation.id, entityType: "appointment", entityId }, orderBy: { createdAt: "asc" } });

describe("who may call", () => {
  it("refuses the signed out and the other portals' roles on every procedure of both doors", async () => {
    const { uid } = await booked(doctor.id, 30);
    const calls = (user: PortalSessionUser | null, door: "admin" | "doctor") => {
      const procedures = as(user)[door].appointments;
      return [
        () => procedures.list({ from: inHours(0), to: inHours(24) }),
        () => procedures.doctors(),
        () => procedures.patients({}),
        () => procedures.schedule({ patientProfileUid: patient.id, doctorUid: doctor.id, startsAt: inHours(40), durationMinutes: 30, reminders: [] }),
        () => procedures.reschedule({ appointmentUid: uid, startsAt: inHours(50), reason: "x" }),
        () => procedures.cancel({ appointmentUid: uid, reason: "x" }),
      ];
    };
    for (const door of ["admin", "doctor"] as const) {
      for (const call of calls(null, door)) expect(await trpcCode(call())).toBe("UNAUTHORIZED");
      for (const call of calls(pharmacist, door)) expect(await trpcCode(call())).toBe("FORBIDDEN");
    }
    for (const call of calls(me, "admin")) expect(await trpcCode(call())).toBe("FORBIDDEN");
    for (const call of calls(admin, "doctor")) expect(await trpcCode(call())).toBe("FORBIDDEN");
    const unbound = await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id });
    expect(await trpcCode(as(unbound).doctor.appointments.list({ from: inHours(0), to: inHours(24) }))).toBe("FORBIDDEN");
    expect(await meeting(uid)).toMatchObject({ status: "confirmed", cancelReason: null });
    expect(await t.db.meeting.count({ where: { organisationId: t.organisation.id, startsAt: new Date(inHours(40) * 1000) } })).toBe(0);
  });

  it("answers another organisation's appointment, doctor and patient as not found (or the field's refusal), writing nothing", async () => {
    const { uid } = await booked(doctor.id, 31);
    for (const user of [otherAdmin, otherDoctorUser]) {
      const door = as(user)[user.role === "ADMIN" ? "admin" : "doctor"].appointments;
      expect(await trpcCode(door.cancel({ appointmentUid: uid, reason: "not mine" }))).toBe("NOT_FOUND");
      expect(await trpcCode(door.reschedule({ appointmentUid: uid, startsAt: inHours(60), reason: "not mine" }))).toBe("NOT_FOUND");
      expect((await door.list({ from: inHours(0), to: inHours(48) })).items).toEqual([]);
      expect((await door.patients({ search: "Termin" })).map((p) => p.uid)).not.toContain(patient.id);
    }
    expect(await trpcCode(as(otherAdmin).admin.appointments.list({ from: inHours(0), to: inHours(48), doctorUid: doctor.id }))).toBe("NOT_FOUND");
    expect((await as(otherAdmin).admin.appointments.doctors()).map((d) => d.uid)).toEqual([foreignDoctor.id]);

    const refused = await as(admin)
      .admin.appointments.schedule({ patientProfileUid: foreignPatient.id, doctorUid: foreignDoctor.id, startsAt: inHours(45), durationMinutes: 30, reminders: [] })
      .then(() => null, refusalOf);
    expect(refused?.code).toBe("BAD_REQUEST");
    expect(refused?.cause.fields).toEqual({
      doctor_uid: ["No doctor with this uid in the organisation."],
      patient_profile_uid: ["No patient profile with this uid in the organisation."],
    });
    expect(await meeting(uid)).toMatchObject({ status: "confirmed" });
    expect(await t.db.meeting.count({ where: { startsAt: new Date(inHours(45) * 1000) } })).toBe(0);
  });
});

describe("the admin tool's door", () => {
  it("books for any doctor it names (a doctor is required), lists a range by start, filtered by doctor, with patient and reminders", async () => {
    const from = inHours(200);
    const first = await booked(doctor.id, 203, [{ recipientRole: "patient", minutesBefore: 24 * 60 }, { recipientRole: "doctor", minutesBefore: 15 }]);
    const second = await booked(colleague.id, 201);
    await booked(doctor.id, 226); // the next day: outside the range
    const missing = await as(admin)
      .admin.appointments.schedule({ patientProfileUid: patient.id, startsAt: inHours(205), durationMinutes: 30, reminders: [] })
      .then(() => null, refusalOf);
    expect(missing?.code).toBe("BAD_REQUEST");
    expect(missing?.cause.fields).toEqual({ doctor_uid: ["This field is required."] });

    const day = await as(admin).admin.appointments.list({ from, to: from + 24 * HOUR });
    expect(day.more).toBe(false);
    expect(day.items.map((a) => a.uid)).toEqual([second.uid, first.uid]);
    expect(day.items[1]).toEqual({
      uid: first.uid,
      status: "confirmed",
      startsAt: inHours(203),
      endsAt: inHours(203) + 30 * MINUTE,
      durationMinutes: 30,
      doctor: { uid: doctor.id, name: "Dr. Anna Weber" },
      patient: { uid: patient.id, name: "Erika Termin", email: "erika.termin@example.com" },
      cancelReason: null,
      rebookedFrom: null,
      rebookedAs: null,
      reminders: [
        { recipientRole: "patient", minutesBefore: 24 * 60, dueAt: inHours(203) - 24 * HOUR, sentAt: null },
        { recipientRole: "doctor", minutesBefore: 15, dueAt: inHours(203) - 15 * MINUTE, sentAt: null },
      ],
    });
    const colleagues = await as(admin).admin.appointments.list({ from, to: from + 24 * HOUR, doctorUid: colleague.id });
    expect(colleagues.items.map((a) => a.uid)).toEqual([second.uid]);
    expect((await as(admin).admin.appointments.doctors()).map((d) => d.name)).toEqual(["Dr. Anna Weber", "Dr. Kollege"]);

    expect(await meetingEvents(t)).toEqual(expect.arrayContaining([{ meeting_uid: first.uid, change: "confirmed", status: "confirmed" }]));
    expect(await auditOf(first.uid)).toEqual([
      expect.objectContaining({ action: "scheduled", actorType: "USER", actorUserId: admin.id, summary: expect.stringContaining("(30 min) scheduled") }),
    ]);
  });

  it("finds the organisation's patients by a part of the name or e-mail, or the uid", async () => {
    const shopper = await t.db.patientProfile.create({ data: { organisationId: t.organisation.id, displayName: "Paul Kunde" } });
    await t.db.shopCustomer.create({ data: { shopId: t.shop.id, shopCustomerId: `c-${shopper.id}`, patientId: shopper.id, email: "paul.kunde@shop.example" } });
    const found = async (search?: string) => (await as(admin).admin.appointments.patients({ search })).map((p) => p.uid);
    expect(await found("ERIKA.termin@")).toEqual([patient.id]);
    expect(await found("termin")).toEqual([patient.id]);
    expect(await found("kunde@shop")).toEqual([shopper.id]);
    expect(await found(shopper.id)).toEqual([shopper.id]);
    expect(await found("%")).toEqual([]);
    expect(await found()).toEqual(expect.arrayContaining([patient.id, shopper.id]));
    expect((await as(me).doctor.appointments.patients({ search: "Erika" }))[0]).toEqual({ uid: patient.id, name: "Erika Termin", email: "erika.termin@example.com", dateOfBirth: null });
  });

  it("reschedules with a reason: the old one cancelled, the new one rebooked from it with the reminders moved; the list shows both", async () => {
    const old = await booked(colleague.id, 303, [{ recipientRole: "patient", minutesBefore: 120 }]);
    const blank = await as(admin).admin.appointments.reschedule({ appointmentUid: old.uid, startsAt: inHours(310), reason: "   " }).then(() => null, refusalOf);
    expect(blank?.code).toBe("BAD_REQUEST");
    expect(blank?.cause.fields).toEqual({ reason: ["A reason is required to cancel or move an appointment."] });

    const moved = await as(admin).admin.appointments.reschedule({ appointmentUid: old.uid, startsAt: inHours(310), durationMinutes: 45, reason: "Patient asked" });
    expect(await meeting(old.uid)).toMatchObject({ status: "cancelled", cancelReason: "Patient asked" });
    expect(await meeting(moved.uid)).toMatchObject({ status: "confirmed", rebookedFromId: old.uid, doctorId: colleague.id });
    expect((await meetingEvents(t)).filter((e) => [old.uid, moved.uid].includes(e.meeting_uid))).toEqual([
      { meeting_uid: old.uid, change: "confirmed", status: "confirmed" },
      { meeting_uid: old.uid, change: "cancelled", status: "cancelled" },
      { meeting_uid: moved.uid, change: "rebooked", status: "confirmed" },
    ]);
    const list = await as(admin).admin.appointments.list({ from: inHours(300), to: inHours(324) });
    expect(list.items.find((a) => a.uid === old.uid)).toMatchObject({ status: "cancelled", cancelReason: "Patient asked", rebookedAs: { uid: moved.uid, startsAt: inHours(310) }, reminders: [] });
    expect(list.items.find((a) => a.uid === moved.uid)).toMatchObject({
      status: "confirmed",
      durationMinutes: 45,
      rebookedFrom: { uid: old.uid, startsAt: inHours(303) },
      reminders: [{ recipientRole: "patient", minutesBefore: 120, dueAt: inHours(308), sentAt: null }],
    });
    expect(await auditOf(moved.uid)).toEqual([expect.objectContaining({ action: "rescheduled", actorUserId: admin.id, details: expect.objectContaining({ reason: "Patient asked", rebooked_from_uid: old.uid }) })]);
    // The old appointment is cancelled now: it cannot be moved again.
    expect(await trpcCode(as(admin).admin.appointments.reschedule({ appointmentUid: old.uid, startsAt: inHours(320), reason: "again" }))).toBe("CONFLICT");
  });

  it("cancels with a reason; two cancels at once record one cancellation, one event and one audit entry", async () => {
    const { uid } = await booked(doctor.id, 403, [{ recipientRole: "patient", minutesBefore: 60 }]);
    expect(await trpcCode(as(admin).admin.appointments.cancel({ appointmentUid: uid, reason: "" }))).toBe("BAD_REQUEST");
    const results = await Promise.all([
      as(admin).admin.appointments.cancel({ appointmentUid: uid, reason: "Doctor ill" }),
      as(admin).admin.appointments.cancel({ appointmentUid: uid, reason: "Doctor ill" }),
      as(me).doctor.appointments.cancel({ appointmentUid: uid, reason: "I am ill" }),
    ]);
    expect(results.filter((r) => r.changed)).toHaveLength(1);
    expect(results.every((r) => r.uid === uid)).toBe(true);
    expect((await meetingEvents(t)).filter((e) => e.meeting_uid === uid).map((e) => e.change)).toEqual(["confirmed", "cancelled"]);
    expect((await auditOf(uid)).map((a) => a.action)).toEqual(["scheduled", "cancelled"]);
    expect(await t.db.appointmentReminder.count({ where: { meetingId: uid } })).toBe(0);
  });
});

describe("the doctors' workspace's door", () => {
  it("books for the doctor themselves; naming another doctor is not found, nothing written", async () => {
    const mine = await as(me).doctor.appointments.schedule({ patientProfileUid: patient.id, startsAt: inHours(503), durationMinutes: 20, reminders: [] });
    expect(await meeting(mine.uid)).toMatchObject({ doctorId: doctor.id, status: "confirmed" });
    expect((await auditOf(mine.uid))[0]).toMatchObject({ action: "scheduled", actorUserId: me.id });
    const same = await as(me).doctor.appointments.schedule({ patientProfileUid: patient.id, doctorUid: doctor.id, startsAt: inHours(504), durationMinutes: 20, reminders: [] });
    expect(await meeting(same.uid)).toMatchObject({ doctorId: doctor.id });
    expect(
      await trpcCode(as(me).doctor.appointments.schedule({ patientProfileUid: patient.id, doctorUid: colleague.id, startsAt: inHours(505), durationMinutes: 20, reminders: [] })),
    ).toBe("NOT_FOUND");
    expect(await t.db.meeting.count({ where: { startsAt: new Date(inHours(505) * 1000) } })).toBe(0);
    expect(await as(me).doctor.appointments.doctors()).toEqual([{ uid: doctor.id, name: "Dr. Anna Weber" }]);
  });

  it("lists only the doctor's own appointments, and cannot see, move or cancel a colleague's", async () => {
    const mine = await booked(doctor.id, 603);
    const theirs = await booked(colleague.id, 604);
    const range = { from: inHours(600), to: inHours(624) };
    expect((await as(me).doctor.appointments.list(range)).items.map((a) => a.uid)).toEqual([mine.uid]);
    expect((await as(colleagueUser).doctor.appointments.list(range)).items.map((a) => a.uid)).toEqual([theirs.uid]);
    expect((await as(me).doctor.appointments.list({ ...range, doctorUid: doctor.id })).items.map((a) => a.uid)).toEqual([mine.uid]);
    expect(await trpcCode(as(me).doctor.appointments.list({ ...range, doctorUid: colleague.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(me).doctor.appointments.reschedule({ appointmentUid: theirs.uid, startsAt: inHours(610), reason: "mine now" }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(me).doctor.appointments.cancel({ appointmentUid: theirs.uid, reason: "mine now" }))).toBe("NOT_FOUND");
    expect(await meeting(theirs.uid)).toMatchObject({ status: "confirmed", cancelReason: null });
    expect((await meetingEvents(t)).filter((e) => e.meeting_uid === theirs.uid).map((e) => e.change)).toEqual(["confirmed"]);

    const moved = await as(me).doctor.appointments.reschedule({ appointmentUid: mine.uid, startsAt: inHours(606), reason: "Clinic closed" });
    expect(await meeting(moved.uid)).toMatchObject({ doctorId: doctor.id, rebookedFromId: mine.uid });
    expect(await as(me).doctor.appointments.cancel({ appointmentUid: moved.uid, reason: "Patient called" })).toEqual({ uid: moved.uid, changed: true });
  });

  it("a reminder booked in the workspace is sent by the reminder job as appointment_reminder_due", async () => {
    const { uid } = await as(me).doctor.appointments.schedule({
      patientProfileUid: patient.id,
      startsAt: inHours(703),
      durationMinutes: 30,
      reminders: [{ recipientRole: "doctor", minutesBefore: 2 }],
    });
    await sendDueAppointmentReminders({ now: new Date((inHours(703) - 90) * 1000) });
    const sent = await t.db.outboxEvent.findMany({ where: { organisationId: t.organisation.id, eventType: "appointment_reminder_due", subjectId: uid } });
    expect(sent.map((e) => e.data)).toEqual([{ appointment_uid: uid, recipient_role: "doctor", rebook_allowed: false, cancel_allowed: false, starts_at: inHours(703) }]);
    const [listed] = (await as(me).doctor.appointments.list({ from: inHours(700), to: inHours(724) })).items;
    expect(listed!.reminders).toEqual([{ recipientRole: "doctor", minutesBefore: 2, dueAt: inHours(703) - 2 * MINUTE, sentAt: inHours(703) - 90 }]);
  });
});

type ErrorBody = { error: { message: string; data: { code: string; fieldErrors: Record<string, unknown> | null } } };

/** A call as the browser sends it (queries by GET, mutations by POST), so the answer is worded by the error formatter. */
async function portalCall(procedure: string, input: unknown, user: PortalSessionUser, kind: "query" | "mutation") {
  const url = `http://localhost:3000/api/trpc/${procedure}`;
  const request =
    kind === "query"
      ? new Request(`${url}?input=${encodeURIComponent(JSON.stringify(input))}`)
      : new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) });
  const response = await handleTrpcRequest(request, async () => user);
  return { status: response.status, body: (await response.json()) as ErrorBody };
}

describe("refusals in the caller's language", () => {
  it("the domain's field messages and zod's, in German and in English", async () => {
    const german = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
    await t.db.user.update({ where: { id: german.id }, data: { locale: "de" } });
    const english = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
    await t.db.user.update({ where: { id: english.id }, data: { locale: "en" } });
    const bad = {
      patientProfileUid: patient.id,
      doctorUid: doctor.id,
      startsAt: NOW - HOUR,
      durationMinutes: 2,
      reminders: [{ recipientRole: "patient", minutesBefore: -5 }],
    };
    const inGerman = await portalCall("admin.appointments.schedule", bad, german, "mutation");
    expect(inGerman.status).toBe(400);
    expect(inGerman.body.error.data.fieldErrors).toEqual({
      startsAt: ["Der Termin muss in der Zukunft beginnen."],
      durationMinutes: ["Geben Sie ganze Minuten von 5 bis 480 ein."],
      reminders: { "0": { minutesBefore: ["Geben Sie ganze Minuten von 0 bis 43200 ein."] } },
    });
    expect((await portalCall("admin.appointments.schedule", bad, english, "mutation")).body.error.data.fieldErrors).toEqual({
      startsAt: ["The appointment must start in the future."],
      durationMinutes: ["Enter whole minutes from 5 to 480."],
      reminders: { "0": { minutesBefore: ["Enter whole minutes from 0 to 43200."] } },
    });

    const { uid } = await booked(doctor.id, 803);
    const noReason = { appointmentUid: uid, reason: " " };
    expect((await portalCall("admin.appointments.cancel", noReason, german, "mutation")).body.error.data.fieldErrors).toEqual({
      reason: ["Geben Sie einen Grund an, um einen Termin abzusagen oder zu verschieben."],
    });
    expect((await portalCall("admin.appointments.reschedule", { ...noReason, startsAt: inHours(810) }, english, "mutation")).body.error.data.fieldErrors).toEqual({
      reason: ["A reason is required to cancel or move an appointment."],
    });
    await as(admin).admin.appointments.cancel({ appointmentUid: uid, reason: "Doctor ill" });
    const conflict = await portalCall("admin.appointments.reschedule", { appointmentUid: uid, startsAt: inHours(810), reason: "move" }, german, "mutation");
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.message).toBe("Ein Termin im Status „abgesagt“ kann nicht verschoben werden: Das geht nur bei einem bestätigten Termin.");

    const backwards = { from: inHours(10), to: inHours(9) };
    expect((await portalCall("admin.appointments.list", backwards, german, "query")).body.error.data.fieldErrors).toEqual({ to: ["Das Ende muss nach dem Beginn liegen."] });
    expect((await portalCall("admin.appointments.list", backwards, english, "query")).body.error.data.fieldErrors).toEqual({ to: ["The end must be after the start."] });
    const tooLong = { from: inHours(0), to: inHours(0) + 40 * 24 * HOUR };
    expect((await portalCall("admin.appointments.list", tooLong, german, "query")).body.error.data.fieldErrors).toEqual({ to: ["Wählen Sie einen Zeitraum von höchstens 31 Tagen."] });
    expect((await portalCall("admin.appointments.list", tooLong, english, "query")).body.error.data.fieldErrors).toEqual({ to: ["Choose a range of at most 31 days."] });
  });
});
