/**
 * The Doctors section (issue 35) on a real database with requests that real order intake created:
 * requeueing a doctor's pending requests (to the pool, to a colleague, approved ones stay, a
 * deactivated colleague refused, two requeues at once move each request once), the queue's "sees
 * all" and questionnaire assignment (decisions apply the same rule), deactivation, settings and their
 * audit, and the admin home's flag of requests past their doctor's minutes to respond.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/server/auth/password";
import { authorizeCredentials, type PortalSessionUser } from "@/server/auth/portal-session";
import { countOverdueRequests } from "@/server/domain/admin-home/attention";
import { ConflictError, NotFoundError, ValidationError } from "@/server/domain/errors";
import { approvePrescription, holdPrescription } from "@/server/domain/prescriptions/decisions";
import { getDoctorRequest, listDoctorQueue } from "@/server/domain/prescriptions/doctor-queue";
import { setDosageInstructions } from "@/server/domain/prescriptions/dosage-instructions";
import { createCaller } from "@/server/trpc/router";
import { createTenant, PRESCRIBER, type Tenant } from "@/tests/fixtures";
import { onPostgres, untilWaitingForLock } from "@/tests/locks";
import { withShopSkus } from "@/tests/orders";
import { placeWaitingOrder } from "@/tests/prescription-orders";
import { trpcCode } from "@/tests/trpc";
import { createPortalUser } from "@/tests/webhook-logs";
import { changeDoctorSettings, listAdminDoctors, setDoctorActive } from "./doctor-settings";
import { requeuePendingPrescriptions } from "./requeue";

let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let admin: PortalSessionUser;
const org = () => t.organisation.id;
const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });

beforeAll(async () => {
  t = await createTenant();
  await t.db.organisation.update({ where: { id: t.organisation.id }, data: { sandbox: true } });
  refs = await withShopSkus(t);
  admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
});

let doctorCount = 0;
const addDoctor = (data: Record<string, unknown> = {}) =>
  t.db.doctor.create({ data: { ...PRESCRIBER, organisationId: org(), displayName: `Dr. ${++doctorCount} ${Math.random().toString(36).slice(2, 6)}`, canSignQes: true, ...data } });

/** A request waiting for a doctor, assigned to `doctorId` (order intake's doctor_uid) or unassigned; its questionnaire's id too. */
async function request(doctorId: string | null) {
  const placed = await placeWaitingOrder(t, refs, { customerId: `c-${Math.random().toString(36).slice(2, 10)}`, overrides: doctorId ? { doctor_uid: doctorId } : {} });
  const p = await t.db.prescription.findUniqueOrThrow({ where: { id: placed.prescriptionId }, select: { doctorId: true } });
  if (p.doctorId !== doctorId) await t.db.prescription.update({ where: { id: placed.prescriptionId }, data: { doctorId } });
  const anamnesis = await t.db.questionnaireResponse.findUniqueOrThrow({ where: { id: placed.anamnesisId }, select: { questionnaireId: true } });
  return { id: placed.prescriptionId, questionnaireId: anamnesis.questionnaireId };
}

const assignment = (id: string) => t.db.prescription.findUniqueOrThrow({ where: { id }, select: { doctorId: true, status: true } });
const updatedEvents = (id: string) =>
  t.db.outboxEvent.findMany({ where: { eventType: "prescription_updated", subjectId: id }, orderBy: { createdAt: "asc" } });
const actor = (userId: string) => ({ type: "USER" as const, userId });

describe("requeue pending prescriptions", () => {
  it("to the pool: waiting and on-hold requests become unassigned with prescription_updated (from/to doctor, reason requeue); approved and signed ones stay", async () => {
    const doctor = await addDoctor();
    const waiting = await request(doctor.id);
    const held = await request(doctor.id);
    await holdPrescription(org(), held.id, { actor: actor(admin.id), note: "Which dose?" });
    const approved = await request(doctor.id);
    await approvePrescription(org(), approved.id, { actor: actor(admin.id) });
    const signed = await request(doctor.id);
    await t.db.prescription.update({ where: { id: signed.id }, data: { status: "signed" } });
    const eventsBefore = await updatedEvents(waiting.id);

    const { moved } = await requeuePendingPrescriptions(org(), admin.id, doctor.id, { kind: "pool" });
    expect(moved.sort()).toEqual([waiting.id, held.id].sort());
    expect(await assignment(waiting.id)).toEqual({ doctorId: null, status: "waiting for doctor" });
    expect(await assignment(held.id)).toEqual({ doctorId: null, status: "ON_HOLD" });
    expect(await assignment(approved.id)).toEqual({ doctorId: doctor.id, status: "approved" });
    expect(await assignment(signed.id)).toEqual({ doctorId: doctor.id, status: "signed" });

    const events = await updatedEvents(waiting.id);
    expect(events).toHaveLength(eventsBefore.length + 1);
    expect(events.at(-1)!.data).toEqual({
      from_status: "waiting for doctor",
      to_status: "waiting for doctor",
      reason: null,
      from_doctor_uid: doctor.id,
      to_doctor_uid: null,
      doctor_assignment_reason: "requeue",
    });
    expect((await updatedEvents(approved.id)).map((e) => (e.data as { doctor_assignment_reason: string | null }).doctor_assignment_reason)).not.toContain("requeue");

    const audit = await t.db.auditEvent.findFirstOrThrow({ where: { organisationId: org(), entityType: "doctor", entityId: doctor.id, action: "requeued" } });
    expect(audit.summary).toBe(`2 pending prescription(s) of "${doctor.displayName}" requeued to the pool`);

    // Again: nothing is left to move, nothing is recorded.
    expect((await requeuePendingPrescriptions(org(), admin.id, doctor.id, { kind: "pool" })).moved).toEqual([]);
    expect(await t.db.auditEvent.count({ where: { entityType: "doctor", entityId: doctor.id, action: "requeued" } })).toBe(1);
  });

  it("to a colleague: their queue shows the requests; a deactivated colleague, oneself and another organisation's doctor are refused", async () => {
    const doctor = await addDoctor();
    const colleague = await addDoctor();
    const gone = await addDoctor({ deactivatedAt: new Date() });
    const foreign = await createTenant().then((o) => o.db.doctor.create({ data: { organisationId: o.organisation.id, displayName: "Dr. Fremd" } }));
    const a = await request(doctor.id);
    const b = await request(doctor.id);

    for (const target of [gone.id, doctor.id, foreign.id]) {
      await expect(requeuePendingPrescriptions(org(), admin.id, doctor.id, { kind: "doctor", doctorId: target })).rejects.toBeInstanceOf(ValidationError);
    }
    expect(await assignment(a.id)).toMatchObject({ doctorId: doctor.id });

    const { moved } = await requeuePendingPrescriptions(org(), admin.id, doctor.id, { kind: "doctor", doctorId: colleague.id });
    expect(moved.sort()).toEqual([a.id, b.id].sort());
    const queue = await listDoctorQueue(org(), colleague.id);
    expect(queue.items.filter((i) => i.doctorId === colleague.id).map((i) => i.id).sort()).toEqual([a.id, b.id].sort());
    expect((await updatedEvents(a.id)).at(-1)!.data).toMatchObject({ from_doctor_uid: doctor.id, to_doctor_uid: colleague.id, doctor_assignment_reason: "requeue" });
    // The doctor no longer sees them (assigned to another).
    await expect(getDoctorRequest(org(), doctor.id, a.id)).rejects.toBeInstanceOf(NotFoundError);

    // Over tRPC: the admin's door, the same refusal for a deactivated colleague.
    expect(await trpcCode(as(admin).admin.doctors.requeue({ doctorUid: colleague.id, toDoctorUid: gone.id }))).toBe("BAD_REQUEST");
    expect(await as(admin).admin.doctors.requeue({ doctorUid: colleague.id, toDoctorUid: doctor.id })).toEqual({ moved: 2 });
    const doctorUser = await createPortalUser(t.db, { role: "DOCTOR", organisationId: org(), doctorId: doctor.id });
    expect(await trpcCode(as(doctorUser).admin.doctors.requeue({ doctorUid: doctor.id, toDoctorUid: null }))).toBe("FORBIDDEN");
  });

  it("two requeues at once move each request once (one event each), whichever runs first", async () => {
    const doctor = await addDoctor();
    const colleague = await addDoctor();
    const requests = await Promise.all([request(doctor.id), request(doctor.id), request(doctor.id)]);
    const before = new Map(await Promise.all(requests.map(async (r) => [r.id, (await updatedEvents(r.id)).length] as const)));

    // On PostgreSQL a third transaction holds the doctor's row lock until both requeues wait for it,
    // so they really run at once; PGlite (one connection) runs them one after the other.
    let release = () => {};
    let blocker: Promise<unknown> = Promise.resolve();
    if (onPostgres) {
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked = () => {};
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      blocker = t.db.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT "id" FROM "Doctor" WHERE "id" = ${doctor.id} FOR UPDATE`;
        locked();
        await held;
      }, { timeout: 60_000 });
      await isLocked;
    }
    const both = Promise.all([
      requeuePendingPrescriptions(org(), admin.id, doctor.id, { kind: "doctor", doctorId: colleague.id }),
      requeuePendingPrescriptions(org(), admin.id, doctor.id, { kind: "pool" }),
    ]);
    if (onPostgres) {
      await untilWaitingForLock(t.db, 2);
      release();
    }
    const [[first, second]] = await Promise.all([both, blocker]);
    expect([...first.moved, ...second.moved].sort()).toEqual(requests.map((r) => r.id).sort());
    expect(first.moved.length === 3 || second.moved.length === 3).toBe(true);
    for (const r of requests) {
      const events = (await updatedEvents(r.id)).slice(before.get(r.id));
      expect(events).toHaveLength(1);
      expect(events[0].data).toMatchObject({ from_doctor_uid: doctor.id, doctor_assignment_reason: "requeue" });
    }
  });
});

describe("the queue honours sees all and the assigned questionnaires", () => {
  it("a doctor who does not see all sees their own and unassigned requests of their questionnaires only; decisions and dosage edits apply the same rule", async () => {
    const narrow = await addDoctor({ canSeeAllPrescriptions: false });
    const wide = await addDoctor();
    const offered = await request(null);
    const notOffered = await request(null);
    const own = await request(narrow.id);
    await changeDoctorSettings(org(), admin.id, narrow.id, {
      displayName: narrow.displayName,
      email: null,
      minutesToRespond: null,
      canSignQes: true,
      canSeeAllPrescriptions: false,
      questionnaireIds: [offered.questionnaireId],
    });

    const narrowQueue = (await listDoctorQueue(org(), narrow.id)).items.map((i) => i.id);
    expect(narrowQueue).toContain(offered.id);
    expect(narrowQueue).toContain(own.id);
    expect(narrowQueue).not.toContain(notOffered.id);
    const wideQueue = (await listDoctorQueue(org(), wide.id)).items.map((i) => i.id);
    expect(wideQueue).toEqual(expect.arrayContaining([offered.id, notOffered.id]));
    expect(wideQueue).not.toContain(own.id);

    // A request the doctor cannot see is not found: to read, to decide on (ownRequestsOnly), to edit.
    await expect(getDoctorRequest(org(), narrow.id, notOffered.id)).rejects.toBeInstanceOf(NotFoundError);
    const decision = { actor: actor(admin.id), doctorId: narrow.id, ownRequestsOnly: true };
    await expect(approvePrescription(org(), notOffered.id, decision)).rejects.toBeInstanceOf(NotFoundError);
    await expect(holdPrescription(org(), notOffered.id, { ...decision, note: "?" })).rejects.toBeInstanceOf(NotFoundError);
    const line = await t.db.prescriptionLine.findFirstOrThrow({ where: { prescriptionId: notOffered.id } });
    await expect(
      setDosageInstructions(org(), notOffered.id, { actor: actor(admin.id), doctorId: narrow.id, ownRequestsOnly: true }, [{ lineId: line.id, dosage: "1 daily" }]),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await assignment(notOffered.id)).toEqual({ doctorId: null, status: "waiting for doctor" });
    // The offered one can be taken.
    expect(await approvePrescription(org(), offered.id, decision)).toMatchObject({ status: "approved", changed: true });

    // Seeing all again: every unassigned request (the assignment is kept for later).
    await t.db.doctor.update({ where: { id: narrow.id }, data: { canSeeAllPrescriptions: true } });
    expect((await listDoctorQueue(org(), narrow.id)).items.map((i) => i.id)).toContain(notOffered.id);
    expect(await t.db.doctorQuestionnaire.count({ where: { doctorId: narrow.id } })).toBe(1);
  });
});

describe("deactivating a doctor", () => {
  it("ends their workspace, refuses their decisions and new orders naming them; their requests stay theirs; reactivating lets them sign in again; both audited", async () => {
    const doctor = await addDoctor();
    const user = await createPortalUser(t.db, { role: "DOCTOR", organisationId: org(), doctorId: doctor.id });
    await t.db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword("a long enough password") } });
    const signIn = () => authorizeCredentials(user.email, "a long enough password", { "x-forwarded-for": "203.0.113.9" });
    expect(await signIn()).toMatchObject({ id: user.id });
    const mine = await request(doctor.id);
    expect((await as(user).doctor.requests.queue()).items.map((i) => i.uid)).toContain(mine.id);

    expect(await as(admin).admin.doctors.setActive({ doctorUid: doctor.id, active: false })).toMatchObject({ active: false });
    expect(await trpcCode(as(user).doctor.requests.queue())).toBe("UNAUTHORIZED");
    expect(await signIn()).toBeNull();
    await expect(approvePrescription(org(), mine.id, { actor: actor(admin.id) })).rejects.toBeInstanceOf(ConflictError);
    expect(await assignment(mine.id)).toEqual({ doctorId: doctor.id, status: "waiting for doctor" });
    const refused = await placeWaitingOrder(t, refs, { customerId: "c-refused", overrides: { doctor_uid: doctor.id } }).catch((error: Error) => error);
    expect(String(refused)).toContain("This doctor is deactivated.");
    const someone = await addDoctor();
    expect((await as(admin).admin.doctors.context({ doctorUid: someone.id })).colleagues.map((c) => c.uid)).not.toContain(doctor.id);
    // Doing it again records nothing.
    expect(await setDoctorActive(org(), admin.id, doctor.id, false)).toBe(false);

    await as(admin).admin.doctors.setActive({ doctorUid: doctor.id, active: true });
    // The old session stays ended (its version was raised); a new sign-in works again.
    expect(await trpcCode(as(user).doctor.requests.queue())).toBe("UNAUTHORIZED");
    expect(await signIn()).toMatchObject({ id: user.id, sessionVersion: user.sessionVersion + 1 });
    const signedInAgain = { ...user, sessionVersion: user.sessionVersion + 1 };
    expect((await as(signedInAgain).doctor.requests.queue()).items.map((i) => i.uid)).toContain(mine.id);
    const actions = await t.db.auditEvent.findMany({ where: { entityType: "doctor", entityId: doctor.id }, orderBy: { createdAt: "asc" }, select: { action: true } });
    expect(actions.map((a) => a.action)).toEqual(["deactivated", "reactivated"]);
  });
});

describe("settings", () => {
  it("changes name, e-mail, minutes, rights and questionnaires, audited by field; the same settings record nothing; another organisation's questionnaire is refused", async () => {
    const doctor = await addDoctor();
    const [q1, q2] = await Promise.all(["A", "B"].map((name) => t.db.questionnaire.create({ data: { organisationId: org(), displayName: name, model: {} } })));
    const foreign = await createTenant().then((o) => o.db.questionnaire.create({ data: { organisationId: o.organisation.id, displayName: "X", model: {} } }));
    const settings = { displayName: "Dr. Neu", email: "neu@example.com", minutesToRespond: 30, canSignQes: false, canSeeAllPrescriptions: false, questionnaireIds: [q1.id, q2.id] };
    expect(await changeDoctorSettings(org(), admin.id, doctor.id, settings)).toEqual(["displayName", "email", "minutesToRespond", "canSignQes", "canSeeAllPrescriptions", "questionnaireIds"]);
    expect(await changeDoctorSettings(org(), admin.id, doctor.id, { ...settings, questionnaireIds: [q2.id, q1.id] })).toEqual([]);
    await expect(changeDoctorSettings(org(), admin.id, doctor.id, { ...settings, questionnaireIds: [foreign.id] })).rejects.toBeInstanceOf(ValidationError);
    expect(await changeDoctorSettings(org(), admin.id, doctor.id, { ...settings, questionnaireIds: [q2.id] })).toEqual(["questionnaireIds"]);

    const audits = await t.db.auditEvent.findMany({ where: { entityType: "doctor", entityId: doctor.id, action: "settings_changed" }, orderBy: { createdAt: "asc" } });
    expect(audits.map((a) => a.summary)).toEqual([
      `Doctor "${doctor.displayName}": name, e-mail, minutes to respond, can sign prescriptions, can see all prescriptions, assigned questionnaires changed`,
      `Doctor "Dr. Neu": assigned questionnaires changed`,
    ]);
    expect(audits[1].details).toEqual({ changed: {}, questionnaires: { added: [], removed: [q1.id] } });

    // The door: minutes must be a positive whole number.
    const input = { doctorUid: doctor.id, name: "Dr. Neu", email: null, canSignQes: true, canSeeAllPrescriptions: true, questionnaireUids: [] };
    expect(await trpcCode(as(admin).admin.doctors.changeSettings({ ...input, minutesToRespond: 0 }))).toBe("BAD_REQUEST");
    expect((await as(admin).admin.doctors.changeSettings({ ...input, minutesToRespond: null })).minutesToRespond).toBeNull();
  });
});

describe("the admin home flags requests past their doctor's minutes to respond", () => {
  it("counts requests assigned to a doctor with minutes to respond, waiting longer than those; the Doctors list shows the same per doctor", async () => {
    const tenant = t;
    const before = await countOverdueRequests(org());
    const quick = await addDoctor({ minutesToRespond: 30 });
    const relaxed = await addDoctor();
    const late = await request(quick.id);
    const fresh = await request(quick.id);
    const lateButHeld = await request(quick.id);
    const lateNoMinutes = await request(relaxed.id);
    const hourAgo = new Date(Date.now() - 60 * 60_000);
    for (const id of [late.id, lateButHeld.id, lateNoMinutes.id]) await tenant.db.prescription.update({ where: { id }, data: { createdAt: hourAgo } });
    await holdPrescription(org(), lateButHeld.id, { actor: actor(admin.id), note: "Photo please" });

    expect(await countOverdueRequests(org())).toBe(before + 1);
    // Half an hour later the fresh one is late too.
    expect(await countOverdueRequests(org(), new Date(Date.now() + 31 * 60_000))).toBe(before + 2);
    const list = await listAdminDoctors(org());
    expect(list.items.find((d) => d.id === quick.id)).toMatchObject({ pending: 3, overdue: 1, minutesToRespond: 30 });
    expect(list.items.find((d) => d.id === relaxed.id)).toMatchObject({ pending: 1, overdue: 0 });
    expect((await as(admin).admin.home.summary()).overdueRequests).toBe(before + 1);
    expect(fresh.id).toBeTruthy();
  });
});
