import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { approvePrescription, declinePrescription, signPrescription } from "@/server/domain/prescriptions/decisions";
import { createTenant, PRESCRIBER, type Tenant } from "@/tests/fixtures";
import { get } from "@/tests/http";
import { withShopSkus } from "@/tests/orders";
import { placeWaitingOrder, storeRenderedPdf } from "@/tests/prescription-orders";

const M = "/v1/management";
const actor = { type: "SYSTEM" } as const;
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

let t: Tenant;
let other: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  // The sandbox: its doctors sign with their sandbox certificates (signer.ts), no trust service needed here.
  await t.db.organisation.update({ where: { id: t.organisation.id }, data: { sandbox: true } });
  refs = await withShopSkus(t);
});

const keyWith = async (tenant: Tenant, permissions: string[]) =>
  (await createApiKey({ family: "MANAGEMENT", displayName: permissions.join(","), permissions, organisationId: tenant.organisation.id })).plaintext;

describe("GET /v1/management/doctors", () => {
  it("lists the organisation's doctors by name in the paginated envelope, {uid, display_name, email, can_sign_qes, created_at}", async () => {
    const tenant = await createTenant();
    const zoe = await tenant.db.doctor.create({ data: { organisationId: tenant.organisation.id, displayName: "Dr. Zoe Zander", canSignQes: false } });
    const anna = await tenant.db.doctor.create({
      data: { organisationId: tenant.organisation.id, displayName: "Dr. Anna Adler", email: "adler@example.com" },
    });
    await other.db.doctor.create({ data: { organisationId: other.organisation.id, displayName: "Dr. Other" } });

    const r = await get(`${M}/doctors`, { key: tenant.keys.management });
    expect(r.status).toBe(200);
    const none = {
      professional_title: null,
      practice_address: { name: null, street: null, postal_code: null, city: null, country: null },
      phone: null,
      prescription_email: null,
      identification: null,
      minutes_to_respond: null,
      can_see_all_prescriptions: true,
      assigned_questionnaire_uids: [],
      active: true,
    };
    expect(r.json).toEqual({
      data: [
        { uid: anna.id, display_name: "Dr. Anna Adler", email: "adler@example.com", can_sign_qes: true, can_sign_prescriptions: true, created_at: seconds(anna.createdAt), ...none },
        { uid: zoe.id, display_name: "Dr. Zoe Zander", email: null, can_sign_qes: false, can_sign_prescriptions: false, created_at: seconds(zoe.createdAt), ...none },
      ],
      totalRegistries: 2,
      totalPages: 1,
    });

    const page = await get(`${M}/doctors`, { key: tenant.keys.management, query: { page: 1, limit: 1 } });
    expect(page.json).toEqual({ data: [expect.objectContaining({ uid: zoe.id })], totalRegistries: 2, totalPages: 2 });
  });

  it("shows each doctor's prescriber details as the admin tool set them", async () => {
    const tenant = await createTenant();
    const doctor = await tenant.db.doctor.create({
      data: { ...PRESCRIBER, organisationId: tenant.organisation.id, displayName: "Dr. Anna Adler", email: "adler@example.com", prescriptionEmail: "rezepte@adler.example" },
    });
    const r = await get(`${M}/doctors`, { key: tenant.keys.management });
    expect(r.json.data).toEqual([
      {
        uid: doctor.id,
        display_name: "Dr. Anna Adler",
        email: "adler@example.com",
        can_sign_qes: true,
        created_at: seconds(doctor.createdAt),
        professional_title: "Facharzt für Allgemeinmedizin",
        practice_address: { name: "Praxis am Markt", street: "Marktstraße 1", postal_code: "10115", city: "Berlin", country: "DE" },
        phone: "+49 30 1234567",
        prescription_email: "rezepte@adler.example",
        identification: { type: "LANR", value: "123456789" },
        minutes_to_respond: null,
        can_sign_prescriptions: true,
        can_see_all_prescriptions: true,
        assigned_questionnaire_uids: [],
        active: true,
      },
    ]);
  });

  it("adds the Doctors section's fields (issue 35): minutes to respond, the rights, assigned questionnaires, active", async () => {
    const tenant = await createTenant();
    const [q1, q2] = await Promise.all(
      ["Hair loss", "Acne"].map((displayName) => tenant.db.questionnaire.create({ data: { organisationId: tenant.organisation.id, displayName, model: {} } })),
    );
    const doctor = await tenant.db.doctor.create({
      data: {
        organisationId: tenant.organisation.id,
        displayName: "Dr. Berta Assigned",
        canSignQes: false,
        minutesToRespond: 45,
        canSeeAllPrescriptions: false,
        deactivatedAt: new Date(),
        questionnaires: { create: [{ questionnaireId: q1.id }, { questionnaireId: q2.id }] },
      },
    });
    const r = await get(`${M}/doctors`, { key: tenant.keys.management });
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual([
      expect.objectContaining({
        uid: doctor.id,
        can_sign_qes: false,
        minutes_to_respond: 45,
        can_sign_prescriptions: false,
        can_see_all_prescriptions: false,
        assigned_questionnaire_uids: [q1.id, q2.id].sort(),
        active: false,
      }),
    ]);
  });

  it("gives at most 200 doctors per page (a larger limit is capped)", async () => {
    const tenant = await createTenant();
    await tenant.db.doctor.createMany({
      data: Array.from({ length: 205 }, (_, i) => ({ organisationId: tenant.organisation.id, displayName: `Dr. ${String(i).padStart(3, "0")}` })),
    });
    const r = await get(`${M}/doctors`, { key: tenant.keys.management, query: { limit: 5000 } });
    expect([r.json.data.length, r.json.totalRegistries, r.json.totalPages]).toEqual([200, 205, 2]);
    const last = await get(`${M}/doctors`, { key: tenant.keys.management, query: { limit: 5000, page: 1 } });
    expect(last.json.data.map((d: { display_name: string }) => d.display_name)).toEqual(["Dr. 200", "Dr. 201", "Dr. 202", "Dr. 203", "Dr. 204"]);
  });

  it("answers 401 without a key, 403 without doctor:read, 400 for a malformed page", async () => {
    expect((await get(`${M}/doctors`)).status).toBe(401);
    const denied = await get(`${M}/doctors`, { key: await keyWith(t, ["doctor_statistics:read"]) });
    expect(denied.status).toBe(403);
    expect(denied.json).toEqual({ code: "permission_denied", description: expect.stringContaining("doctor:read") });
    const bad = await get(`${M}/doctors`, { key: t.keys.management, query: { page: "first" } });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: { page: [expect.any(String)] } });
  });
});

describe("GET /v1/management/doctors/{doctor_uid}/statistics", () => {
  it("counts prescriptions signed and declined by when the decision was made, pending ones, and completed consultations", async () => {
    const doctor = await t.db.doctor.create({ data: { ...PRESCRIBER, organisationId: t.organisation.id, displayName: "Dr. Stat" } });
    const colleague = await t.db.doctor.create({ data: { ...PRESCRIBER, organisationId: t.organisation.id, displayName: "Dr. Colleague" } });
    const before = seconds(new Date()) - 1;

    // Signed through the real decisions (approve, sign), declined, approved and left pending.
    const signed = await placeWaitingOrder(t, refs, { customerId: "stat-1" });
    await approvePrescription(t.organisation.id, signed.prescriptionId, { actor, doctorId: doctor.id });
    await storeRenderedPdf(t, signed.prescriptionId);
    await signPrescription(t.organisation.id, signed.prescriptionId, { actor });
    const declined = await placeWaitingOrder(t, refs, { customerId: "stat-2" });
    await declinePrescription(t.organisation.id, declined.prescriptionId, { actor, doctorId: doctor.id });
    const pending = await placeWaitingOrder(t, refs, { customerId: "stat-3" });
    await approvePrescription(t.organisation.id, pending.prescriptionId, { actor, doctorId: doctor.id });
    const colleagues = await placeWaitingOrder(t, refs, { customerId: "stat-4" });
    await declinePrescription(t.organisation.id, colleagues.prescriptionId, { actor, doctorId: colleague.id });

    // Consultations: 10 and 20 minutes, completed now; one completed long ago; one still allocated.
    const now = Date.now();
    const patient = await t.db.patientProfile.create({ data: { organisationId: t.organisation.id, displayName: "P" } });
    const consultation = (allocatedAt: number, completedAt: number | null) =>
      t.db.waitingRoomEntry.create({
        data: {
          organisationId: t.organisation.id,
          shopId: t.shop.id,
          patientId: patient.id,
          doctorId: doctor.id,
          status: completedAt === null ? "allocated" : "completed",
          allocatedAt: new Date(allocatedAt),
          completedAt: completedAt === null ? null : new Date(completedAt),
        },
      });
    await consultation(now - 10 * 60_000, now);
    await consultation(now - 20 * 60_000, now);
    await consultation(now - 400 * 86_400_000, now - 399 * 86_400_000);
    await consultation(now - 60_000, null);
    const after = seconds(new Date()) + 1;

    const r = await get(`${M}/doctors/${doctor.id}/statistics`, { key: t.keys.management, query: { from: before, to: after } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({
      doctor_uid: doctor.id,
      from: before,
      to: after,
      prescriptions: { signed: 1, declined: 1, pending: 1 },
      consultations: { completed: 2, average_duration_minutes: 15 },
    });

    // A decision counts when it was made: moved back by a day, the signature and the decline leave the range.
    const yesterday = new Date(now - 86_400_000);
    await t.db.prescriptionHistory.updateMany({
      where: { prescriptionId: { in: [signed.prescriptionId, declined.prescriptionId] } },
      data: { createdAt: yesterday },
    });
    const later = await get(`${M}/doctors/${doctor.id}/statistics`, { key: t.keys.management, query: { from: before, to: after } });
    expect(later.json.prescriptions).toEqual({ signed: 0, declined: 0, pending: 1 });
    const wide = await get(`${M}/doctors/${doctor.id}/statistics`, {
      key: t.keys.management,
      query: { from: seconds(yesterday), to: after },
    });
    expect(wide.json.prescriptions).toEqual({ signed: 1, declined: 1, pending: 1 });
    // Both bounds are inclusive.
    const exact = await get(`${M}/doctors/${doctor.id}/statistics`, {
      key: t.keys.management,
      query: { from: seconds(yesterday) - 10, to: seconds(yesterday) },
    });
    expect(exact.json.prescriptions).toMatchObject({ signed: 1, declined: 1 });
  });

  it("answers zeros and a null average for a doctor with nothing in the range", async () => {
    const doctor = await t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName: "Dr. Idle" } });
    const r = await get(`${M}/doctors/${doctor.id}/statistics`, { key: t.keys.management, query: { from: 0, to: 100 } });
    expect(r.json).toEqual({
      doctor_uid: doctor.id,
      from: 0,
      to: 100,
      prescriptions: { signed: 0, declined: 0, pending: 0 },
      consultations: { completed: 0, average_duration_minutes: null },
    });
  });

  it("names the missing parameters in the standard error, and refuses malformed or reversed ranges as validation errors", async () => {
    const doctor = await t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName: "Dr. Range" } });
    const stats = (query: Record<string, string | number>) => get(`${M}/doctors/${doctor.id}/statistics`, { key: t.keys.management, query });
    expect(await stats({})).toMatchObject({ status: 400, json: { error: "Missing required parameters: from and to" } });
    expect(await stats({ to: 5 })).toMatchObject({ status: 400, json: { error: "Missing required parameters: from" } });
    expect(await stats({ from: 5, to: "" })).toMatchObject({ status: 400, json: { error: "Missing required parameters: to" } });
    expect(await stats({ from: "yesterday", to: 5 })).toMatchObject({ status: 400, json: { error: { from: [expect.any(String)] } } });
    expect(await stats({ from: -5, to: 5 })).toMatchObject({ status: 400, json: { error: { from: [expect.any(String)] } } });
    expect(await stats({ from: 5, to: 5 })).toMatchObject({ status: 400, json: { error: { to: ["Must be after from."] } } });
    expect(await stats({ from: 6, to: 5 })).toMatchObject({ status: 400, json: { error: { to: ["Must be after from."] } } });
    expect(await stats({ from: 0, to: "99999999999999999999" })).toMatchObject({ status: 400, json: { error: { to: expect.any(Array) } } });
  });

  it("answers 404 for another organisation's doctor or an unknown uid, 403 without doctor_statistics:read, 401 without a key", async () => {
    const foreign = await other.db.doctor.create({ data: { organisationId: other.organisation.id, displayName: "Dr. Foreign" } });
    const query = { from: 0, to: 100 };
    const r = await get(`${M}/doctors/${foreign.id}/statistics`, { key: t.keys.management, query });
    expect(r).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    expect((await get(`${M}/doctors/unknown/statistics`, { key: t.keys.management, query })).status).toBe(404);
    expect((await get(`${M}/doctors/${foreign.id}/statistics`, { key: other.keys.management, query })).status).toBe(200);
    const denied = await get(`${M}/doctors/${foreign.id}/statistics`, { key: await keyWith(other, ["doctor:read"]), query });
    expect(denied).toMatchObject({ status: 403, json: { code: "permission_denied" } });
    expect((await get(`${M}/doctors/${foreign.id}/statistics`, { query })).status).toBe(401);
  });
});
