/**
 * Management API: waiting room — register, status and cancel through the real route handlers on a
 * real database; the doctor's moves (take the next patient, complete) are the domain functions a
 * doctor's screen calls. Decisions: docs/decisions/telemedicine.md#waiting-room-and-meetings.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { completeConsultation } from "@/server/domain/meetings/complete-consultation";
import { takeNextPatient } from "@/server/domain/meetings/take-next-patient";
import { sealSecret } from "@/server/domain/webhooks/secret-box";
import { WebhookRunner } from "@/server/jobs/webhook-runner";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { call, del, get, post } from "@/tests/http";
import { addDoctor, addPatient, meetingEvents } from "@/tests/meetings";
import { useEnv } from "@/tests/wait";
import { startReceiver } from "@/tests/webhook-receiver";

const BASE = "/v1/management/waiting-room";
const denied = { code: "permission_denied", description: expect.any(String) };
const notFound = { error: "Resource not found" };

let other: Tenant;
beforeAll(async () => {
  other = await createTenant();
});

/** A tenant of its own per test: the queue and its estimate are per organisation. */
async function setup() {
  const t = await createTenant();
  const key = async (permissions: string[]) =>
    (await createApiKey({ family: "MANAGEMENT", displayName: permissions.join(","), permissions, organisationId: t.organisation.id })).plaintext;
  return { t, readKey: await key(["waiting_room:read"]), writeKey: await key(["waiting_room:write"]) };
}

const register = (key: string, body: unknown) => post(`${BASE}/register`, { key, body });

describe("POST /waiting-room/register", () => {
  it("puts the patient in the queue: 201 {queue_uid, position, estimated_wait_minutes}, first come first served", async () => {
    const { t } = await setup();
    const doctor = await addDoctor(t);
    const [ada, ben] = [await addPatient(t, "Ada"), await addPatient(t, "Ben")];
    const first = await register(t.keys.management, {
      shop_uid: t.shop.id,
      patient_profile_uid: ada.id,
      preferred_doctor_uid: doctor.id,
      visit_reason: "  Rash on the arm  ",
    });
    expect(first.status).toBe(201);
    expect(first.json).toEqual({ queue_uid: expect.any(String), position: 1, estimated_wait_minutes: 15 });
    const row = await t.db.waitingRoomEntry.findUniqueOrThrow({ where: { id: first.json.queue_uid } });
    expect(row).toMatchObject({
      organisationId: t.organisation.id,
      shopId: t.shop.id,
      patientId: ada.id,
      preferredDoctorId: doctor.id,
      visitReason: "Rash on the arm",
      status: "waiting",
      doctorId: null,
      videoRoomId: null,
      allocatedAt: null,
    });
    const second = await register(t.keys.management, { shop_uid: t.otherShop.id, patient_profile_uid: ben.id, visit_reason: null });
    expect(second.status).toBe(201);
    expect(second.json).toMatchObject({ position: 2, estimated_wait_minutes: 30 });
    expect((await t.db.waitingRoomEntry.findUniqueOrThrow({ where: { id: second.json.queue_uid } })).visitReason).toBeNull();
  });

  it("estimates from the mean of recent consultations, shared by the doctors consulting", async () => {
    const { t } = await setup();
    const [a, b, c] = [await addDoctor(t, "A"), await addDoctor(t, "B"), await addDoctor(t, "C")];
    // One clock for every time: two Date.now() calls a millisecond apart would make a duration round up.
    const now = Date.now();
    const minutesAgo = (m: number) => new Date(now - m * 60_000);
    // Consultations of 20 and 40 minutes ended in the last hour by A and B, one of 30 minutes two hours
    // ago by C: the mean is 30 minutes, and two doctors are consulting (C is not counted).
    for (const [doctor, from, to] of [[c, 150, 120], [a, 50, 30], [b, 45, 5]] as const) {
      const patient = await addPatient(t);
      await t.db.waitingRoomEntry.create({
        data: { organisationId: t.organisation.id, shopId: t.shop.id, patientId: patient.id, doctorId: doctor.id, status: "completed", allocatedAt: minutesAgo(from), completedAt: minutesAgo(to) },
      });
    }
    const p1 = await register(t.keys.management, { shop_uid: t.shop.id, patient_profile_uid: (await addPatient(t)).id });
    const p2 = await register(t.keys.management, { shop_uid: t.shop.id, patient_profile_uid: (await addPatient(t)).id });
    const p3 = await register(t.keys.management, { shop_uid: t.shop.id, patient_profile_uid: (await addPatient(t)).id });
    expect([p1.json, p2.json, p3.json].map((r) => [r.position, r.estimated_wait_minutes])).toEqual([
      [1, 15],
      [2, 30],
      [3, 45],
    ]);
  });

  it("answers a patient who already waits or is with a doctor with that entry (200); after completion a new one (201)", async () => {
    const { t } = await setup();
    const doctor = await addDoctor(t);
    const patient = await addPatient(t);
    const body = { shop_uid: t.shop.id, patient_profile_uid: patient.id };
    const first = await register(t.keys.management, body);
    expect(first.status).toBe(201);
    const again = await register(t.keys.management, { ...body, shop_uid: t.otherShop.id, visit_reason: "other" });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);

    await takeNextPatient(t.organisation.id, doctor.id);
    const whileAllocated = await register(t.keys.management, body);
    expect(whileAllocated.status).toBe(200);
    expect(whileAllocated.json).toEqual({ queue_uid: first.json.queue_uid, position: 0, estimated_wait_minutes: 0 });

    await completeConsultation(t.organisation.id, doctor.id, first.json.queue_uid);
    const next = await register(t.keys.management, body);
    expect(next.status).toBe(201);
    expect(next.json.queue_uid).not.toBe(first.json.queue_uid);
    expect(await t.db.waitingRoomEntry.count({ where: { patientId: patient.id } })).toBe(2);
  });

  it("makes one entry for concurrent registrations of one patient", async () => {
    const { t } = await setup();
    const patient = await addPatient(t);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => register(t.keys.management, { shop_uid: t.shop.id, patient_profile_uid: patient.id })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.json.queue_uid)).size).toBe(1);
    expect(await t.db.waitingRoomEntry.count({ where: { patientId: patient.id } })).toBe(1);
  });

  it("refuses malformed bodies with 400 on the field, and a shop, patient or doctor outside the organisation with 404, writing nothing", async () => {
    const { t } = await setup();
    const patient = await addPatient(t);
    const foreignPatient = await addPatient(other);
    const foreignDoctor = await addDoctor(other);
    const cases: [unknown, Record<string, unknown>][] = [
      [{}, { shop_uid: [expect.any(String)], patient_profile_uid: [expect.any(String)] }],
      [{ shop_uid: 5, patient_profile_uid: patient.id }, { shop_uid: [expect.any(String)] }],
      [{ shop_uid: t.shop.id, patient_profile_uid: patient.id, visit_reason: "x".repeat(1001) }, { visit_reason: [expect.any(String)] }],
      [{ shop_uid: t.shop.id, patient_profile_uid: patient.id, preferred_doctor_uid: "" }, { preferred_doctor_uid: [expect.any(String)] }],
      [{ shop_uid: t.shop.id, patient_profile_uid: patient.id, visit_reason: "a\u0000b" }, { visit_reason: [expect.any(String)] }],
      [[{ shop_uid: t.shop.id }], { non_field_errors: [expect.any(String)] }],
    ];
    for (const [body, error] of cases) {
      const r = await register(t.keys.management, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json).toEqual({ error });
    }
    for (const body of [
      { shop_uid: other.shop.id, patient_profile_uid: patient.id },
      { shop_uid: t.shop.id, patient_profile_uid: foreignPatient.id },
      { shop_uid: t.shop.id, patient_profile_uid: patient.id, preferred_doctor_uid: foreignDoctor.id },
      { shop_uid: "no-such-shop", patient_profile_uid: "no-such-patient" },
    ]) {
      const r = await register(t.keys.management, body);
      expect(r.status, JSON.stringify(body)).toBe(404);
      expect(r.json).toEqual({ error: "Resource not found" });
    }
    const invalidJson = await call("POST", `${BASE}/register`, { key: t.keys.management, raw: "{", headers: { "content-type": "application/json" } });
    expect(invalidJson.status).toBe(400);
    expect(invalidJson.json).toEqual({ error: "Invalid JSON in request body" });
    const noContentType = await call("POST", `${BASE}/register`, { key: t.keys.management, raw: "{}" });
    expect(noContentType.status).toBe(400);
    expect(noContentType.json).toEqual({ error: "Content-Type must be application/json" });
    expect(await t.db.waitingRoomEntry.count({ where: { organisationId: t.organisation.id } })).toBe(0);
  });

  it("needs waiting_room:write (403) and a key (401)", async () => {
    const { t, readKey } = await setup();
    const body = { shop_uid: t.shop.id, patient_profile_uid: (await addPatient(t)).id };
    for (const key of [readKey, t.keys.managementNoPermissions, t.keys.managementReadOnly]) {
      const r = await register(key, body);
      expect(r.status).toBe(403);
      expect(r.json).toEqual(denied);
    }
    const anonymous = await post(`${BASE}/register`, { body });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toEqual({ code: "authorization_header_missing", description: expect.any(String) });
    const wrongFamily = await register(t.keys.public, body);
    expect(wrongFamily.status).toBe(401);
    expect(await t.db.waitingRoomEntry.count({ where: { organisationId: t.organisation.id } })).toBe(0);
  });
});

describe("GET /waiting-room/{queue_uid}/status", () => {
  it("shows a waiting entry's place, then the allocation's video room and time; 403 without waiting_room:read; 404 outside the organisation", async () => {
    const { t, readKey, writeKey } = await setup();
    const doctor = await addDoctor(t);
    const first = await register(writeKey, { shop_uid: t.shop.id, patient_profile_uid: (await addPatient(t)).id });
    const second = await register(writeKey, { shop_uid: t.shop.id, patient_profile_uid: (await addPatient(t)).id });
    const status = (uid: string, key = readKey) => get(`${BASE}/${uid}/status`, { key });

    expect((await status(second.json.queue_uid)).json).toEqual({
      queue_uid: second.json.queue_uid,
      status: "waiting",
      position: 2,
      estimated_wait_minutes: 30,
      video_room_id: null,
      allocated_at: null,
    });
    const before = Math.floor(Date.now() / 1000);
    const allocation = await takeNextPatient(t.organisation.id, doctor.id);
    expect(allocation?.queueUid).toBe(first.json.queue_uid);
    const allocated = await status(first.json.queue_uid);
    expect(allocated.status).toBe(200);
    expect(allocated.json).toEqual({
      queue_uid: first.json.queue_uid,
      status: "allocated",
      position: 0,
      estimated_wait_minutes: 0,
      video_room_id: allocation!.videoRoomId,
      allocated_at: expect.any(Number),
    });
    expect(allocated.json.video_room_id).toMatch(/^vr_[A-Za-z0-9_-]{32}$/);
    expect(allocated.json.allocated_at).toBeGreaterThanOrEqual(before);
    expect(allocated.json.allocated_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    // The second patient moved up; one doctor is consulting and no consultation is completed yet: 15 minutes.
    expect((await status(second.json.queue_uid)).json).toMatchObject({ position: 1, estimated_wait_minutes: 15 });

    await completeConsultation(t.organisation.id, doctor.id, first.json.queue_uid);
    expect((await status(first.json.queue_uid)).json).toMatchObject({ status: "completed", position: 0, estimated_wait_minutes: 0, video_room_id: allocation!.videoRoomId });

    for (const key of [writeKey, t.keys.managementNoPermissions]) {
      const r = await status(first.json.queue_uid, key);
      expect(r.status).toBe(403);
      expect(r.json).toEqual(denied);
    }
    for (const r of [await status(first.json.queue_uid, other.keys.management), await status("no-such-entry", t.keys.management)]) {
      expect(r.status).toBe(404);
      expect(r.json).toEqual(notFound);
    }
    expect((await get(`${BASE}/${first.json.queue_uid}/status`)).status).toBe(401);
  });
});

describe("DELETE /waiting-room/{queue_uid}", () => {
  const cancelled = { message: "The waiting room registration is cancelled." };

  it("cancels a waiting entry (it leaves the queue; no meeting, no event); again: the same answer", async () => {
    const { t, writeKey } = await setup();
    const first = await register(writeKey, { shop_uid: t.shop.id, patient_profile_uid: (await addPatient(t)).id });
    const second = await register(writeKey, { shop_uid: t.shop.id, patient_profile_uid: (await addPatient(t)).id });
    const r = await del(`${BASE}/${first.json.queue_uid}`, { key: writeKey });
    expect(r.status).toBe(200);
    expect(r.json).toEqual(cancelled);
    const row = await t.db.waitingRoomEntry.findUniqueOrThrow({ where: { id: first.json.queue_uid } });
    expect(row.status).toBe("cancelled");
    expect(row.cancelledAt).toBeInstanceOf(Date);
    expect((await get(`${BASE}/${first.json.queue_uid}/status`, { key: t.keys.management })).json).toMatchObject({ status: "cancelled", position: 0, estimated_wait_minutes: 0 });
    expect((await get(`${BASE}/${second.json.queue_uid}/status`, { key: t.keys.management })).json).toMatchObject({ position: 1 });

    const again = await del(`${BASE}/${first.json.queue_uid}`, { key: writeKey });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(cancelled);
    expect((await t.db.waitingRoomEntry.findUniqueOrThrow({ where: { id: first.json.queue_uid } })).cancelledAt).toEqual(row.cancelledAt);
    expect(await meetingEvents(t)).toEqual([]);
  });

  it("cancels an allocated entry: the meeting ends with change cancelled, once, and the doctor is free", async () => {
    const { t, writeKey } = await setup();
    const doctor = await addDoctor(t);
    const entry = await register(writeKey, { shop_uid: t.shop.id, patient_profile_uid: (await addPatient(t)).id });
    const allocation = await takeNextPatient(t.organisation.id, doctor.id);
    const [r, twice] = [await del(`${BASE}/${entry.json.queue_uid}`, { key: writeKey }), await del(`${BASE}/${entry.json.queue_uid}`, { key: writeKey })];
    expect([r.status, r.json, twice.status, twice.json]).toEqual([200, cancelled, 200, cancelled]);
    const meeting = await t.db.meeting.findUniqueOrThrow({ where: { id: allocation!.meetingId } });
    expect(meeting.endsAt).toBeInstanceOf(Date);
    expect(meeting.status).toBeNull();
    expect(await meetingEvents(t)).toEqual([
      { meeting_uid: meeting.id, change: "confirmed", status: null },
      { meeting_uid: meeting.id, change: "cancelled", status: null },
    ]);
    const next = await register(writeKey, { shop_uid: t.shop.id, patient_profile_uid: (await addPatient(t)).id });
    expect((await takeNextPatient(t.organisation.id, doctor.id))?.queueUid).toBe(next.json.queue_uid);
  });

  it("refuses to cancel a completed consultation (409), changing nothing", async () => {
    const { t, writeKey } = await setup();
    const doctor = await addDoctor(t);
    const entry = await register(writeKey, { shop_uid: t.shop.id, patient_profile_uid: (await addPatient(t)).id });
    await takeNextPatient(t.organisation.id, doctor.id);
    await completeConsultation(t.organisation.id, doctor.id, entry.json.queue_uid);
    const r = await del(`${BASE}/${entry.json.queue_uid}`, { key: writeKey });
    expect(r.status).toBe(409);
    expect(r.json).toEqual({ error: "The consultation is already completed: its registration can no longer be cancelled." });
    expect((await t.db.waitingRoomEntry.findUniqueOrThrow({ where: { id: entry.json.queue_uid } })).status).toBe("completed");
    expect((await meetingEvents(t)).map((e) => e.change)).toEqual(["confirmed", "completed"]);
  });

  it("needs waiting_room:write (403); another organisation's or an unknown entry is 404", async () => {
    const { t, readKey, writeKey } = await setup();
    const entry = await register(writeKey, { shop_uid: t.shop.id, patient_profile_uid: (await addPatient(t)).id });
    for (const key of [readKey, t.keys.managementNoPermissions]) {
      const r = await del(`${BASE}/${entry.json.queue_uid}`, { key });
      expect(r.status).toBe(403);
      expect(r.json).toEqual(denied);
    }
    for (const r of [await del(`${BASE}/${entry.json.queue_uid}`, { key: other.keys.management }), await del(`${BASE}/nope`, { key: writeKey })]) {
      expect(r.status).toBe(404);
      expect(r.json).toEqual(notFound);
    }
    expect((await t.db.waitingRoomEntry.findUniqueOrThrow({ where: { id: entry.json.queue_uid } })).status).toBe("waiting");
  });
});

describe("patient_doctor_meeting_updated from the waiting room", () => {
  useEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });
  let runner: WebhookRunner | null = null;
  afterEach(async () => {
    await runner?.stop();
    runner = null;
  });

  it("reaches the organisation's subscription: confirmed on allocation, completed on completion, status null", async () => {
    const { t, writeKey } = await setup();
    const receiver = await startReceiver();
    try {
      await t.db.webhookSubscription.create({
        data: {
          organisationId: t.organisation.id,
          scope: "ORGANISATION",
          notificationType: "patient_doctor_meeting_updated",
          target: `${receiver.url}/meetings`,
          secretEncrypted: sealSecret("whsec_meetings"),
        },
      });
      runner = new WebhookRunner({ deliver: true });
      await runner.start();
      const doctor = await addDoctor(t);
      const entry = await register(writeKey, { shop_uid: t.shop.id, patient_profile_uid: (await addPatient(t)).id });
      const allocation = await takeNextPatient(t.organisation.id, doctor.id);
      await completeConsultation(t.organisation.id, doctor.id, entry.json.queue_uid);
      await receiver.waitFor(2);
      const got = receiver.received.map((r) => [r.headers["x-webhook-event"], r.json.data]);
      expect(got).toEqual(
        expect.arrayContaining([
          ["patient_doctor_meeting_updated", { meeting_uid: allocation!.meetingId, change: "confirmed", status: null }],
          ["patient_doctor_meeting_updated", { meeting_uid: allocation!.meetingId, change: "completed", status: null }],
        ]),
      );
    } finally {
      await receiver.close();
    }
  });
});
