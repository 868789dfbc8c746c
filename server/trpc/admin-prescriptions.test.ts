/**
 * The admin tool's prescription procedures: the list, statistics and detail of the organisation's
 * prescriptions, its PDF, and render and external sign through the Management API's domain
 * functions (the same conflicts), with an uploaded PDF signed by the sandbox QES signer.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { config } from "@/server/config";
import { ensureSandboxQes } from "@/server/pki/sandbox-ca";
import { samplePrescriptionPdf } from "@/server/pki/sample-pdf";
import { signPdfWithP12 } from "@/server/pki/sign-pdf";
import { readVerified } from "@/server/storage/prescription-files";
import { presentPharmacyOrderPayload } from "@/server/api/webhooks/payload.presenters";
import { getPharmacyOrderDetail } from "@/server/domain/pharmacy-orders/queries";
import { sendPrescriptionToPharmacy } from "@/server/domain/prescriptions/send-to-pharmacy";
import { get } from "@/tests/http";
import { handleTrpcRequest } from "./handler";
import { createCaller } from "./router";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { withShopSkus } from "@/tests/orders";
import { dropAnamnesis, placeWaitingOrder, runPrescriptionTask, storeRenderedPdf } from "@/tests/prescription-orders";
import { trpcCode } from "@/tests/trpc";
import { createPortalUser } from "@/tests/webhook-logs";

let t: Tenant;
let other: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let otherRefs: Awaited<ReturnType<typeof withShopSkus>>;
let admin: PortalSessionUser;
let pharmacist: PortalSessionUser;
let doctor: PortalSessionUser;
let signedPdf: Buffer;
const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  // A sandbox organisation: the sandbox QES CA is one of its trust anchors.
  await t.db.organisation.update({ where: { id: t.organisation.id }, data: { sandbox: true } });
  refs = await withShopSkus(t);
  otherRefs = await withShopSkus(other);
  const organisationId = t.organisation.id;
  admin = await createPortalUser(t.db, { role: "ADMIN", organisationId });
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId, pharmacyId: t.pharmacy.id });
  const doctorRow = await t.db.doctor.create({ data: { organisationId, displayName: "Dr. Rx" } });
  doctor = await createPortalUser(t.db, { role: "DOCTOR", organisationId, doctorId: doctorRow.id });
  const qes = await ensureSandboxQes(path.resolve(config().DATA_DIR));
  signedPdf = await signPdfWithP12(await samplePrescriptionPdf(), readFileSync(qes.signerP12Path), qes.signerP12Password);
});

/** A request waiting for a doctor without anamnesis (what external signing is for), rendered. */
async function renderedExternalRequest(tenant = t) {
  const placed = await placeWaitingOrder(tenant, tenant === t ? refs : otherRefs);
  await dropAnamnesis(tenant, placed.prescriptionId);
  await storeRenderedPdf(tenant, placed.prescriptionId);
  return placed;
}

async function failure(pathName: string, input: unknown, user: PortalSessionUser = admin) {
  const response = await handleTrpcRequest(
    new Request(`http://localhost:3000/api/trpc/${pathName}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) }),
    async () => user,
  );
  expect(response.ok).toBe(false);
  const body = (await response.json()) as { error: { message: string; data: { code: string; fieldErrors: Record<string, unknown> | null } } };
  return { code: body.error.data.code, message: body.error.message, fieldErrors: body.error.data.fieldErrors };
}

const b64 = (pdf: Buffer) => pdf.toString("base64");

describe("who may call", () => {
  it("signed out: UNAUTHORIZED; a pharmacist or a doctor: FORBIDDEN; another organisation's uid: NOT_FOUND; nothing written", async () => {
    const { prescriptionId } = await renderedExternalRequest();
    const calls = (user: PortalSessionUser | null, uid: string) => {
      const c = as(user).admin.prescriptions;
      // Thunks: each call starts when it is awaited (a refused call never rejects unobserved).
      return [() => c.list({}), () => c.statistics(), () => c.get({ uid }), () => c.pdf({ uid }), () => c.render({ uid }), () => c.externalSign({ uid, signedPdfBase64: b64(signedPdf) })];
    };
    for (const [user, code] of [
      [null, "UNAUTHORIZED"],
      [pharmacist, "FORBIDDEN"],
      [doctor, "FORBIDDEN"],
    ] as const) {
      for (const call of calls(user, prescriptionId)) expect(await trpcCode(call())).toBe(code);
    }
    const foreign = await renderedExternalRequest(other);
    for (const call of calls(admin, foreign.prescriptionId).slice(2)) expect(await trpcCode(call())).toBe("NOT_FOUND");
    for (const id of [prescriptionId, foreign.prescriptionId]) {
      const p = await t.db.prescription.findUniqueOrThrow({ where: { id }, include: { history: true } });
      expect(p).toMatchObject({ status: "waiting for doctor", signedFileKey: null });
      expect(p.history).toHaveLength(1);
      expect(await t.db.backgroundTask.count({ where: { payload: { path: ["prescriptionId"], equals: id } } })).toBe(0);
    }
    expect(await t.db.auditEvent.count({ where: { entityId: { in: [prescriptionId, foreign.prescriptionId] } } })).toBe(0);
    expect((await as(admin).admin.prescriptions.list({})).items.some((p) => p.uid === foreign.prescriptionId)).toBe(false);
  });
});

describe("list, statistics and detail", () => {
  it("lists with status filter and search, counts like the Management API, and shows one with patient, lines and history", async () => {
    const waiting = await placeWaitingOrder(t, refs, { customerId: "stat-customer" });
    const orderName = (await t.db.order.findUniqueOrThrow({ where: { id: waiting.orderId } })).name;
    const c = as(admin).admin.prescriptions;
    const all = await c.list({ limit: 100 });
    const entry = all.items.find((p) => p.uid === waiting.prescriptionId)!;
    expect(entry).toMatchObject({
      status: "waiting for doctor",
      source: "DOCTOR",
      patient: { name: expect.stringContaining("Erika") },
      order: { uid: waiting.orderId, name: orderName },
      lineCount: 1,
    });
    const byOrder = await c.list({ search: orderName });
    expect(byOrder.items.map((p) => p.uid)).toEqual([waiting.prescriptionId]);
    expect((await c.list({ status: "EXTERNALLY_SIGNED" })).items.every((p) => p.status === "EXTERNALLY_SIGNED")).toBe(true);
    expect((await c.list({ status: "waiting for doctor" })).items.map((p) => p.uid)).toContain(waiting.prescriptionId);

    const stats = await c.statistics();
    expect(stats.byStatus["waiting for doctor"]).toBe(all.items.filter((p) => p.status === "waiting for doctor").length);
    expect(stats.total).toBe(all.total);

    const detail = await c.get({ uid: waiting.prescriptionId });
    expect(detail).toMatchObject({
      uid: waiting.prescriptionId,
      rendered: false,
      signedFile: false,
      order: { uid: waiting.orderId },
      // Its own order's items redeem it (docs/decisions/prescriptions.md#prescription-redemption).
      lines: [{ sku: { displayName: "Finasteride 1 mg", pzn: "33333333" }, quantity: 2, anamnesisUid: waiting.anamnesisId, redeemed: 2, remaining: 0 }],
      redeemedBy: [{ uid: waiting.orderId, name: orderName }],
      history: [{ fromStatus: null, toStatus: "waiting for doctor", by: { type: "API_KEY", name: expect.any(String) } }],
    });
    expect(await c.pdf({ uid: waiting.prescriptionId })).toBeNull();
    expect(await trpcCode(c.get({ uid: "no-such-uid" }))).toBe("NOT_FOUND");
  });
});

describe("render", () => {
  it("queues the render task as the admin (audit event), and refuses a signed prescription with the domain's conflict", async () => {
    const { prescriptionId } = await renderedExternalRequest();
    const c = as(admin).admin.prescriptions;
    expect(await c.render({ uid: prescriptionId })).toEqual({ uid: prescriptionId });
    await runPrescriptionTask(t, "prescription.render", prescriptionId);
    expect((await c.get({ uid: prescriptionId })).rendered).toBe(true);
    const pdf = await c.pdf({ uid: prescriptionId });
    expect(pdf).toMatchObject({ kind: "rendered", filename: `prescription-${prescriptionId}.pdf` });
    expect(Buffer.from(pdf!.contentBase64, "base64").subarray(0, 5).toString()).toBe("%PDF-");
    const audit = await t.db.auditEvent.findFirstOrThrow({ where: { entityId: prescriptionId } });
    expect(audit).toMatchObject({ entityType: "prescription", action: "render_requested", actorType: "USER", actorUserId: admin.id });

    await c.externalSign({ uid: prescriptionId, signedPdfBase64: b64(signedPdf) });
    expect(await failure("admin.prescriptions.render", { uid: prescriptionId })).toMatchObject({
      code: "CONFLICT",
      message: "A signed prescription cannot be rendered again.",
    });
  });
});

describe("external sign", () => {
  it("an uploaded PDF's signer becomes the doctor of a prescription without one: doctor_data names them in the detail and the payload (issue 36, item 13)", async () => {
    const { prescriptionId } = await renderedExternalRequest();
    expect((await t.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId } })).doctorId).toBeNull();
    await as(admin).admin.prescriptions.externalSign({ uid: prescriptionId, signedPdfBase64: b64(signedPdf) });
    const signed = await t.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId }, include: { doctor: true } });
    expect(signed.doctor?.displayName).toBeTruthy();
    const { created } = await sendPrescriptionToPharmacy(prescriptionId);
    expect(created).toHaveLength(1);
    const r = await get(`/v1/external_pharmacy_api/pharmacy_orders/${created[0]}`, { key: t.keys.pharmacy });
    expect(r.status).toBe(200);
    expect(r.json.doctor_data).toEqual({ uid: signed.doctor!.id, display_name: signed.doctor!.displayName });
    const payload = presentPharmacyOrderPayload(await getPharmacyOrderDetail(t.pharmacy.id, created[0]), null);
    expect(payload.doctor_data).toEqual(r.json.doctor_data);
  });

  it("stores the uploaded signed PDF as the signed copy, history by the admin, send task; the PDF shown is the signed one", async () => {
    const { prescriptionId } = await renderedExternalRequest();
    const c = as(admin).admin.prescriptions;
    expect(await c.externalSign({ uid: prescriptionId, signedPdfBase64: b64(signedPdf) })).toEqual({ uid: prescriptionId, status: "EXTERNALLY_SIGNED" });
    const p = await t.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId }, include: { history: { orderBy: { createdAt: "asc" } } } });
    expect(p.status).toBe("EXTERNALLY_SIGNED");
    expect(await readVerified(p.signedFileKey!, p.signedFileSha256!)).toEqual(signedPdf);
    expect(p.history.at(-1)).toMatchObject({ fromStatus: "waiting for doctor", toStatus: "EXTERNALLY_SIGNED", actorType: "USER", actorUserId: admin.id });
    expect(await t.db.backgroundTask.count({ where: { name: "pharmacy_manager.send_prescription", payload: { path: ["prescriptionId"], equals: prescriptionId } } })).toBe(1);

    const detail = await c.get({ uid: prescriptionId });
    expect(detail).toMatchObject({ status: "EXTERNALLY_SIGNED", signedFile: true, signedAt: expect.any(Number) });
    expect(detail.history.at(-1)).toMatchObject({ toStatus: "EXTERNALLY_SIGNED", by: { type: "USER", uid: admin.id, name: admin.name } });
    const pdf = await c.pdf({ uid: prescriptionId });
    expect(pdf?.kind).toBe("signed");
    expect(Buffer.from(pdf!.contentBase64, "base64")).toEqual(signedPdf);

    // Signed now: the domain's conflict, as a message.
    expect(await failure("admin.prescriptions.externalSign", { uid: prescriptionId, signedPdfBase64: b64(signedPdf) })).toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/Only a prescription waiting for a doctor/),
    });
  });

  it("a double click signs once", async () => {
    const { prescriptionId } = await renderedExternalRequest();
    const c = as(admin).admin.prescriptions;
    const results = await Promise.allSettled([
      c.externalSign({ uid: prescriptionId, signedPdfBase64: b64(signedPdf) }),
      c.externalSign({ uid: prescriptionId, signedPdfBase64: b64(signedPdf) }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await t.db.prescriptionHistory.count({ where: { prescriptionId, toStatus: "EXTERNALLY_SIGNED" } })).toBe(1);
    expect(await t.db.backgroundTask.count({ where: { name: "pharmacy_manager.send_prescription", payload: { path: ["prescriptionId"], equals: prescriptionId } } })).toBe(1);
  });

  it("refuses the spec's conflicts (anamnesis, no rendered PDF) and a file that is not a validly signed PDF, changing nothing", async () => {
    const unchanged = async (id: string) => {
      const p = await t.db.prescription.findUniqueOrThrow({ where: { id }, include: { history: true } });
      expect(p).toMatchObject({ status: "waiting for doctor", signedFileKey: null });
      expect(p.history).toHaveLength(1);
    };
    const withAnamnesis = await placeWaitingOrder(t, refs);
    await storeRenderedPdf(t, withAnamnesis.prescriptionId);
    expect(await failure("admin.prescriptions.externalSign", { uid: withAnamnesis.prescriptionId, signedPdfBase64: b64(signedPdf) })).toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/anamnesis/),
    });
    await unchanged(withAnamnesis.prescriptionId);

    const notRendered = await placeWaitingOrder(t, refs);
    await dropAnamnesis(t, notRendered.prescriptionId);
    expect(await failure("admin.prescriptions.externalSign", { uid: notRendered.prescriptionId, signedPdfBase64: b64(signedPdf) })).toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/no rendered PDF/),
    });
    await unchanged(notRendered.prescriptionId);

    const { prescriptionId } = await renderedExternalRequest();
    const unsigned = await failure("admin.prescriptions.externalSign", { uid: prescriptionId, signedPdfBase64: b64(await samplePrescriptionPdf()) });
    expect(unsigned.code).toBe("UNPROCESSABLE_CONTENT");
    expect(unsigned.fieldErrors).toEqual({ signedPdfBase64: [expect.any(String)] });
    expect(await failure("admin.prescriptions.externalSign", { uid: prescriptionId, signedPdfBase64: b64(Buffer.from("hello")) })).toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      fieldErrors: { signedPdfBase64: ["The file is not a PDF."] },
    });
    expect(await failure("admin.prescriptions.externalSign", { uid: prescriptionId, signedPdfBase64: "" })).toMatchObject({
      code: "BAD_REQUEST",
      fieldErrors: { signedPdfBase64: ["Choose the signed PDF."] },
    });
    // Tampered after signing: the signature no longer covers the file.
    const tampered = Buffer.from(signedPdf);
    tampered[200] = tampered[200] === 0x41 ? 0x42 : 0x41;
    expect((await failure("admin.prescriptions.externalSign", { uid: prescriptionId, signedPdfBase64: b64(tampered) })).code).toBe("UNPROCESSABLE_CONTENT");
    await unchanged(prescriptionId);
  });
});
