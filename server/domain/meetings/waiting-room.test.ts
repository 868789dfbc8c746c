/**
 * The doctor's side of the waiting room: taking the next patient (first come, first served, the
 * preferred doctor's grace period, one patient per doctor, never one patient for two doctors, under
 * concurrency) and completing the consultation.
 */
import { describe, expect, it } from "vitest";
import { ConflictError, NotFoundError, ValidationError } from "@/server/domain/errors";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { addDoctor, addPatient, meetingEvents } from "@/tests/meetings";
import { onPostgres, untilWaitingForLock } from "@/tests/locks";
import { cancelWaitingRoomEntry } from "./cancel-waiting-room-entry";
import { completeConsultation } from "./complete-consultation";
import { registerInWaitingRoom } from "./register-in-waiting-room";
import { PREFERRED_DOCTOR_GRACE_MINUTES, takeNextPatient } from "./take-next-patient";
import { DEFAULT_CONSULTATION_MINUTES, getWaitingRoomStatus, RECENT_CONSULTATIONS } from "./waiting-room-queries";


async function enqueue(t: Tenant, options: { preferredDoctorId?: string } = {}) {
  const patient = await addPatient(t);
  const { standing } = await registerInWaitingRoom(t.organisation.id, { shopId: t.shop.id, patientId: patient.id, ...options });
  return { entryId: standing.id, patientId: patient.id };
}

const refusal = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
};

describe("registerInWaitingRoom", () => {
  // PostgreSQL only (two transactions at once): a registration of the same patient committing while
  // this one runs. The patient's row lock makes this one wait and answer that entry.
  it.skipIf(!onPostgres)("waits for a concurrent registration of the same patient and answers its entry", async () => {
    const t = await createTenant();
    const patient = await addPatient(t);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let wrote!: (id: string) => void;
    const written = new Promise<string>((resolve) => (wrote = resolve));
    const racing = t.db.$transaction(
      async (tx) => {
        const entry = await tx.waitingRoomEntry.create({ data: { organisationId: t.organisation.id, shopId: t.shop.id, patientId: patient.id } });
        wrote(entry.id);
        await released;
      }
    );
    const racingId = await written;
    const registering = registerInWaitingRoom(t.organisation.id, { shopId: t.shop.id, patientId: patient.id });
    await untilWaitingForLock(t.db); // the registration waits on the patient's row lock: the race is on
    release();
    await racing;
    const { standing, created } = await registering;
    expect([created, standing.id]).toEqual([false, racingId]);
    expect(await t.db.waitingRoomEntry.count({ where: { patientId: patient.id } })).toBe(1);
  });
});

describe("takeNextPatient", () => {
  it("allocates the oldest waiting patient: doctor, video room, allocated_at, an on-demand meeting and change confirmed", async () => {
    const t = await createTenant();
    const doctor = await addDoctor(t);
    const first = await enqueue(t);
    await enqueue(t);
    const now = new Date();
    const allocation = await takeNextPatient(t.organisation.id, doctor.id, now);
    expect(allocation).toEqual({
      queueUid: first.entryId,
      meetingId: expect.any(String),
      patientId: first.patientId,
      videoRoomId: expect.stringMatching(/^vr_[A-Za-z0-9_-]{32}$/),
      allocatedAt: now,
    });
    expect(await t.db.waitingRoomEntry.findUniqueOrThrow({ where: { id: first.entryId } })).toMatchObject({
      status: "allocated",
      doctorId: doctor.id,
      videoRoomId: allocation!.videoRoomId,
      allocatedAt: now,
    });
    expect(await t.db.meeting.findUniqueOrThrow({ where: { id: allocation!.meetingId } })).toMatchObject({
      organisationId: t.organisation.id,
      kind: "ON_DEMAND",
      status: null,
      doctorId: doctor.id,
      patientId: first.patientId,
      waitingRoomEntryId: first.entryId,
      videoRoomId: allocation!.videoRoomId,
      startsAt: now,
      endsAt: null,
    });
    expect(await meetingEvents(t)).toEqual([{ meeting_uid: allocation!.meetingId, change: "confirmed", status: null }]);
  });

  it("returns null when nobody waits; refuses a doctor of another organisation", async () => {
    const t = await createTenant();
    const other = await createTenant();
    expect(await takeNextPatient(t.organisation.id, (await addDoctor(t)).id)).toBeNull();
    await enqueue(t);
    const error = await refusal(takeNextPatient(t.organisation.id, (await addDoctor(other)).id));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fields).toEqual({ doctor_uid: ["No doctor with this uid in the organisation."] });
    expect(await t.db.waitingRoomEntry.count({ where: { organisationId: t.organisation.id, status: "waiting" } })).toBe(1);
  });

  it("keeps a patient who asked for a doctor for that doctor during the grace period, then for anyone", async () => {
    const t = await createTenant();
    const [weber, lang] = [await addDoctor(t, "Weber"), await addDoctor(t, "Lang")];
    const forLang = await enqueue(t, { preferredDoctorId: lang.id });
    const anyone = await enqueue(t);
    const forLangToo = await enqueue(t, { preferredDoctorId: lang.id });
    expect((await takeNextPatient(t.organisation.id, weber.id))?.queueUid).toBe(anyone.entryId);
    expect((await takeNextPatient(t.organisation.id, lang.id))?.queueUid).toBe(forLang.entryId);
    await completeConsultation(t.organisation.id, weber.id, anyone.entryId);
    expect(await takeNextPatient(t.organisation.id, weber.id)).toBeNull();
    const afterGrace = new Date(Date.now() + (PREFERRED_DOCTOR_GRACE_MINUTES + 1) * 60_000);
    expect((await takeNextPatient(t.organisation.id, weber.id, afterGrace))?.queueUid).toBe(forLangToo.entryId);
  });

  it("gives a doctor one patient at a time: a second call is a 409 doctor_busy naming the current entry", async () => {
    const t = await createTenant();
    const doctor = await addDoctor(t);
    const first = await enqueue(t);
    const second = await enqueue(t);
    await takeNextPatient(t.organisation.id, doctor.id);
    const error = await refusal(takeNextPatient(t.organisation.id, doctor.id));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: "doctor_busy", details: { queue_uid: first.entryId } });
    expect((await getWaitingRoomStatus(t.organisation.id, second.entryId)).status).toBe("waiting");
  });

  it("allocates each patient exactly once when many doctors take patients at the same time", async () => {
    const t = await createTenant();
    const doctors = await Promise.all(Array.from({ length: 8 }, (_, i) => addDoctor(t, `Dr ${i}`)));
    const entries = [];
    for (let i = 0; i < 5; i++) entries.push(await enqueue(t));
    const results = await Promise.all(doctors.map((d) => takeNextPatient(t.organisation.id, d.id)));
    const taken = results.filter((r) => r !== null);
    expect(taken).toHaveLength(5);
    expect(taken.map((r) => r!.queueUid).sort()).toEqual(entries.map((e) => e.entryId).sort());
    const rows = await t.db.waitingRoomEntry.findMany({ where: { organisationId: t.organisation.id } });
    expect(rows.every((r) => r.status === "allocated")).toBe(true);
    expect(new Set(rows.map((r) => r.doctorId)).size).toBe(5);
    expect(await t.db.meeting.count({ where: { organisationId: t.organisation.id } })).toBe(5);
    expect(await meetingEvents(t)).toHaveLength(5);
  });

  it("gives one doctor calling several times at once one patient; the other calls are doctor_busy", async () => {
    const t = await createTenant();
    const doctor = await addDoctor(t);
    for (let i = 0; i < 3; i++) await enqueue(t);
    const settled = await Promise.allSettled(Array.from({ length: 4 }, () => takeNextPatient(t.organisation.id, doctor.id)));
    const won = settled.filter((s) => s.status === "fulfilled");
    const lost = settled.filter((s): s is PromiseRejectedResult => s.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost.map((s) => [s.reason instanceof ConflictError, (s.reason as ConflictError).code])).toEqual([
      [true, "doctor_busy"],
      [true, "doctor_busy"],
      [true, "doctor_busy"],
    ]);
    expect(await t.db.waitingRoomEntry.count({ where: { organisationId: t.organisation.id, status: "allocated" } })).toBe(1);
    expect(await t.db.meeting.count({ where: { organisationId: t.organisation.id } })).toBe(1);
  });

  // Only PostgreSQL runs two transactions at once (PGlite has one connection). A writer outside
  // takeNextPatient re-opens the doctor's finished consultation, uncommitted, while takeNextPatient
  // runs: its doctorId does not change, so it takes no lock on the doctor's row, and only the partial
  // unique index can refuse the second allocation.
  it.skipIf(!onPostgres)("answers a violation of the one-allocated-per-doctor index as doctor_busy, not a server error", async () => {
    const t = await createTenant();
    const doctor = await addDoctor(t);
    const past = await enqueue(t);
    await t.db.waitingRoomEntry.update({ where: { id: past.entryId }, data: { status: "completed", doctorId: doctor.id } });
    const other = await enqueue(t);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const racing = t.db.$transaction(
      async (tx) => {
        await tx.waitingRoomEntry.update({ where: { id: past.entryId }, data: { status: "allocated" } });
        wrote();
        await released;
      }
    );
    await written;
    const taking = refusal(takeNextPatient(t.organisation.id, doctor.id));
    await untilWaitingForLock(t.db); // takeNextPatient claimed the other entry and waits on the index for the racing writer
    release();
    await racing;
    expect(await taking).toMatchObject({ code: "doctor_busy" });
    expect((await getWaitingRoomStatus(t.organisation.id, other.entryId)).status).toBe("waiting");
    expect(await t.db.meeting.count({ where: { organisationId: t.organisation.id } })).toBe(0);
  });
});

describe("completeConsultation", () => {
  it("completes the doctor's consultation once (completed_at, meeting ends_at, change completed), and refuses the other moves", async () => {
    const t = await createTenant();
    const [doctor, colleague] = [await addDoctor(t), await addDoctor(t, "Colleague")];
    const entry = await enqueue(t);
    const waiting = await enqueue(t);
    expect(await refusal(completeConsultation(t.organisation.id, doctor.id, waiting.entryId))).toBeInstanceOf(ConflictError);
    const allocation = await takeNextPatient(t.organisation.id, doctor.id);
    const notTheirs = await refusal(completeConsultation(t.organisation.id, colleague.id, entry.entryId));
    expect(notTheirs).toMatchObject({ code: "not_your_consultation" });

    const now = new Date();
    expect(await completeConsultation(t.organisation.id, doctor.id, entry.entryId, now)).toEqual({ queueUid: entry.entryId, changed: true });
    expect(await completeConsultation(t.organisation.id, doctor.id, entry.entryId)).toEqual({ queueUid: entry.entryId, changed: false });
    expect(await t.db.waitingRoomEntry.findUniqueOrThrow({ where: { id: entry.entryId } })).toMatchObject({ status: "completed", completedAt: now });
    expect((await t.db.meeting.findUniqueOrThrow({ where: { id: allocation!.meetingId } })).endsAt).toEqual(now);
    expect((await meetingEvents(t)).map((e) => [e.meeting_uid, e.change, e.status])).toEqual([
      [allocation!.meetingId, "confirmed", null],
      [allocation!.meetingId, "completed", null],
    ]);
    expect(await refusal(completeConsultation(t.organisation.id, colleague.id, entry.entryId))).toBeInstanceOf(ConflictError);

    await cancelWaitingRoomEntry(t.organisation.id, waiting.entryId);
    expect(await refusal(completeConsultation(t.organisation.id, doctor.id, waiting.entryId))).toBeInstanceOf(ConflictError);
    const other = await createTenant();
    expect(await refusal(completeConsultation(other.organisation.id, doctor.id, entry.entryId))).toBeInstanceOf(NotFoundError);
    // The doctor is free again.
    await enqueue(t);
    expect(await takeNextPatient(t.organisation.id, doctor.id)).not.toBeNull();
  });
});

describe("the estimate", () => {
  it("uses the last RECENT_CONSULTATIONS completed consultations only, and the default without any", async () => {
    const t = await createTenant();
    const doctor = await addDoctor(t);
    const lone = await enqueue(t);
    expect((await getWaitingRoomStatus(t.organisation.id, lone.entryId)).estimatedWaitMinutes).toBe(DEFAULT_CONSULTATION_MINUTES);
    await cancelWaitingRoomEntry(t.organisation.id, lone.entryId);
    const patient = await addPatient(t);
    // One clock reading for every time: durations built from two readings can exceed 10 minutes by a
    // millisecond, which the estimate rounds up to 11.
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000);
    const consultation = (from: number, minutes: number) => ({
      organisationId: t.organisation.id,
      shopId: t.shop.id,
      patientId: patient.id,
      doctorId: doctor.id,
      status: "completed",
      allocatedAt: at(from),
      completedAt: at(from - minutes),
    });
    // An old 120-minute consultation, then RECENT_CONSULTATIONS of 10 minutes: the old one no longer counts.
    await t.db.waitingRoomEntry.createMany({
      data: [consultation(2000, 120), ...Array.from({ length: RECENT_CONSULTATIONS }, (_, i) => consultation(40 - i, 10))],
    });
    const next = await enqueue(t);
    expect((await getWaitingRoomStatus(t.organisation.id, next.entryId)).estimatedWaitMinutes).toBe(10);
  });
});
