/**
 * Management API: prescriptions — read, render, external signing and statistics, through the real
 * route handlers on a real database, with orders that wait for a doctor made by real order intake.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey, hashApiKey } from "@/server/auth/api-keys";
import { readVerified, signedKey } from "@/server/storage/prescription-files";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, post } from "@/tests/http";
import { withShopSkus } from "@/tests/orders";
import { dropAnamnesis, placeWaitingOrder, runPrescriptionTask, storeRenderedPdf } from "@/tests/prescription-orders";

const BASE = "/v1/management/prescriptions";

let t: Tenant;
let other: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let readKey: string; // prescription:read only
let signKey: string; // prescription:external_sign only

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  refs = await withShopSkus(t);
  await withShopSkus(other);
  const key = async (permissions: string[]) =>
    (await createApiKey({ family: "MANAGEMENT", displayName: permissions.join(","), permissions, organisationId: t.organisation.id })).plaintext;
  readKey = await key(["prescription:read"]);
  signKey = await key(["prescription:external_sign"]);
});

const denied = { code: "permission_denied", description: expect.any(String) };

/** A prescription request waiting for a doctor whose item has no anamnesis (what a skip-validation item makes). */
async function externalRequest() {
  const placed = await placeWaitingOrder(t, refs);
  await dropAnamnesis(t, placed.prescriptionId);
  return placed;
}

describe("GET /prescriptions/{uid}", () => {
  it("returns the prescription with its lines; 403 without prescription:read; 404 for another organisation's or a deleted one", async () => {
    // As intake leaves it: no dosage instructions yet.
    const { prescriptionId, orderId, anamnesisId } = await placeWaitingOrder(t, refs, { readyToSign: false });
    const r = await get(`${BASE}/${prescriptionId}`, { key: readKey });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      uid: prescriptionId,
      status: "waiting for doctor",
      doctor: null,
      rendered: false,
      order_uid: orderId,
      lines: [
        {
          uid: expect.any(String),
          sku_uid: t.rxSku.id,
          sku_display_name: "Finasteride 1 mg",
          pzn: "33333333",
          quantity: 2,
          dosage: null,
          anamnesis_uid: anamnesisId,
          // Its own order's item redeems it (docs/decisions/prescriptions.md#prescription-redemption).
          redeemed_quantity: 2,
          remaining_quantity: 0,
        },
      ],
      signed_at: null,
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
    });

    for (const key of [t.keys.managementReadOnly, t.keys.managementNoPermissions, signKey]) {
      const forbidden = await get(`${BASE}/${prescriptionId}`, { key });
      expect(forbidden.status).toBe(403);
      expect(forbidden.json).toEqual(denied);
    }
    const foreign = await get(`${BASE}/${prescriptionId}`, { key: other.keys.management });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toEqual({ error: "Resource not found" });
    expect((await get(`${BASE}/no-such-uid/`, { key: readKey })).status).toBe(404);

    const doctor = await t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName: "Dr. Weber" } });
    await t.db.prescription.update({ where: { id: prescriptionId }, data: { doctorId: doctor.id, status: "WAITING_FOR_DOCTOR" } });
    const spelled = await get(`${BASE}/${prescriptionId}/`, { key: readKey });
    expect(spelled.json).toMatchObject({ status: "waiting for doctor", doctor: { uid: doctor.id, display_name: "Dr. Weber" } });

    await t.db.prescription.update({ where: { id: prescriptionId }, data: { deletedAt: new Date() } });
    expect((await get(`${BASE}/${prescriptionId}`, { key: readKey })).status).toBe(404);
  });
});

describe("POST /prescriptions/{uid}/render", () => {
  it("answers 202, publishes prescription.render, and the task makes rendered true", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    const forbidden = await post(`${BASE}/${prescriptionId}/render`, { key: readKey });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json).toEqual(denied);
    expect((await post(`${BASE}/${prescriptionId}/render`, { key: other.keys.management })).status).toBe(404);

    const r = await post(`${BASE}/${prescriptionId}/render`, { key: signKey });
    expect(r.status).toBe(202);
    expect(r.json).toEqual({ uid: prescriptionId, message: expect.stringMatching(/rendered is true/) });
    expect((await get(`${BASE}/${prescriptionId}`, { key: readKey })).json.rendered).toBe(false);

    await runPrescriptionTask(t, "prescription.render", prescriptionId);
    expect((await get(`${BASE}/${prescriptionId}`, { key: readKey })).json.rendered).toBe(true);
  });

  it("refuses to render a signed prescription again (409)", async () => {
    const { prescriptionId } = await externalRequest();
    await storeRenderedPdf(t, prescriptionId);
    expect((await post(`${BASE}/${prescriptionId}/external-sign`, { key: signKey })).status).toBe(200);
    const r = await post(`${BASE}/${prescriptionId}/render`, { key: signKey });
    expect(r.status).toBe(409);
    expect(r.json).toEqual({ error: expect.stringMatching(/signed prescription cannot be rendered/) });
  });
});

describe("POST /prescriptions/{uid}/external-sign", () => {
  it("signs a rendered request without anamnesis: signed copy with checksum, history for the key, send task; the task routes the order", async () => {
    const { prescriptionId, orderId } = await externalRequest();
    expect((await post(`${BASE}/${prescriptionId}/render`, { key: signKey })).status).toBe(202);
    await runPrescriptionTask(t, "prescription.render", prescriptionId);
    const rendered = await t.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId } });

    const forbidden = await post(`${BASE}/${prescriptionId}/external-sign`, { key: readKey });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json).toEqual(denied);
    expect((await post(`${BASE}/${prescriptionId}/external-sign`, { key: other.keys.management })).status).toBe(404);

    const r = await post(`${BASE}/${prescriptionId}/external-sign`, { key: signKey });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ uid: prescriptionId, status: "EXTERNALLY_SIGNED" });

    const signed = await t.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId }, include: { history: { orderBy: { createdAt: "asc" } } } });
    expect(signed).toMatchObject({ status: "EXTERNALLY_SIGNED", signedFileKey: signedKey(prescriptionId), signedFileSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(signed.signedAt).toBeInstanceOf(Date);
    const { prescriptionStorage } = await import("@/server/storage/prescription-files");
    expect(await readVerified(signed.signedFileKey!, signed.signedFileSha256!)).toEqual(await prescriptionStorage().get(rendered.renderedFileKey!));
    const keyRow = await t.db.apiKey.findUniqueOrThrow({ where: { keyHash: hashApiKey(signKey) } });
    expect(signed.history.at(-1)).toMatchObject({
      fromStatus: "waiting for doctor",
      toStatus: "EXTERNALLY_SIGNED",
      actorType: "API_KEY",
      actorApiKeyId: keyRow.id,
    });
    expect((await get(`${BASE}/${prescriptionId}`, { key: readKey })).json).toMatchObject({ status: "EXTERNALLY_SIGNED", signed_at: expect.any(Number) });

    // The published pharmacy_manager.send_prescription creates the pharmacy order, once.
    expect(await t.db.pharmacyOrder.count({ where: { orderId } })).toBe(0);
    await runPrescriptionTask(t, "pharmacy_manager.send_prescription", prescriptionId);
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId } });
    expect(po).toMatchObject({ prescriptionId, prepaid: 5998, pharmacyId: t.pharmacy.id });
    expect(await t.db.outboxEvent.count({ where: { subjectId: po.id, eventType: "pharmacy_order_created" } })).toBe(1);
    const order = await get(`/v1/management/orders/${orderId}`, { key: t.keys.management });
    expect(order.json).toMatchObject({ status: "waiting for pharmacy", prescriptions: [{ uid: prescriptionId, status: "EXTERNALLY_SIGNED" }] });

    // Signed now: a second external-sign is a conflict.
    const again = await post(`${BASE}/${prescriptionId}/external-sign`, { key: signKey });
    expect(again.status).toBe(409);
  });

  it("accepts every spelling of waiting for doctor and refuses other statuses with 409", async () => {
    const spelled = await externalRequest();
    await storeRenderedPdf(t, spelled.prescriptionId);
    await t.db.prescription.update({ where: { id: spelled.prescriptionId }, data: { status: "waiting_for_doctor" } });
    expect((await post(`${BASE}/${spelled.prescriptionId}/external-sign`, { key: signKey })).json).toMatchObject({ status: "EXTERNALLY_SIGNED" });

    for (const status of ["approved", "ON_HOLD", "declined", "signed", "cancelled"]) {
      const { prescriptionId } = await externalRequest();
      await storeRenderedPdf(t, prescriptionId);
      await t.db.prescription.update({ where: { id: prescriptionId }, data: { status } });
      const r = await post(`${BASE}/${prescriptionId}/external-sign`, { key: signKey });
      expect(r.status, status).toBe(409);
      expect(r.json).toEqual({ error: expect.stringMatching(/Only a prescription waiting for a doctor/) });
      expect((await t.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId } })).status).toBe(status);
    }
  });

  it("refuses with 409 when an item has an anamnesis", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    await storeRenderedPdf(t, prescriptionId);
    const r = await post(`${BASE}/${prescriptionId}/external-sign`, { key: signKey });
    expect(r.status).toBe(409);
    expect(r.json).toEqual({ error: expect.stringMatching(/anamnesis/) });
    // The anamnesis on the order item alone is enough.
    await t.db.prescriptionLine.updateMany({ where: { prescriptionId }, data: { anamnesisId: null } });
    expect((await post(`${BASE}/${prescriptionId}/external-sign`, { key: signKey })).status).toBe(409);
  });

  it("refuses with 409 when no rendered PDF exists (never rendered, or the file is missing), and changes nothing", async () => {
    const { prescriptionId } = await externalRequest();
    let r = await post(`${BASE}/${prescriptionId}/external-sign`, { key: signKey });
    expect(r.status).toBe(409);
    expect(r.json).toEqual({ error: expect.stringMatching(/no rendered PDF/) });
    await t.db.prescription.update({ where: { id: prescriptionId }, data: { renderedFileKey: `rendered/${prescriptionId}.pdf` } });
    r = await post(`${BASE}/${prescriptionId}/external-sign`, { key: signKey });
    expect(r.status).toBe(409);
    const p = await t.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId }, include: { history: true } });
    expect(p).toMatchObject({ status: "waiting for doctor", signedFileKey: null });
    expect(p.history).toHaveLength(1);
    expect(await t.db.backgroundTask.count({ where: { name: "pharmacy_manager.send_prescription", payload: { path: ["prescriptionId"], equals: prescriptionId } } })).toBe(0);
  });
});

describe("GET /prescriptions/statistics", () => {
  it("counts the organisation's live prescriptions per status now, every status listed, spellings folded", async () => {
    const fresh = await createTenant();
    const freshRefs = await withShopSkus(fresh);
    const path = `${BASE}/statistics`;
    const forbidden = await get(path, { key: fresh.keys.managementReadOnly });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json).toEqual(denied);

    const zero = { "waiting for doctor": 0, ON_HOLD: 0, approved: 0, declined: 0, signed: 0, NON_QES_SIGNED: 0, EXTERNALLY_SIGNED: 0, cancelled: 0 };
    expect((await get(path, { key: fresh.keys.management })).json).toEqual({ total: 0, by_status: zero });

    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await placeWaitingOrder(fresh, freshRefs)).prescriptionId);
    await fresh.db.prescription.update({ where: { id: ids[1] }, data: { status: "WAITING_FOR_DOCTOR" } });
    await fresh.db.prescription.update({ where: { id: ids[2] }, data: { status: "approved" } });
    await fresh.db.prescription.update({ where: { id: ids[3] }, data: { status: "NON_QES_SIGNED" } });
    await fresh.db.prescription.update({ where: { id: ids[4] }, data: { deletedAt: new Date() } });
    await placeWaitingOrder(t, refs); // another organisation's

    const r = await get(`${path}/`, { key: fresh.keys.management });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ total: 4, by_status: { ...zero, "waiting for doctor": 2, approved: 1, NON_QES_SIGNED: 1 } });
  });
});
