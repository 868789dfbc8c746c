/**
 * A doctor's decisions on prescription requests that real order intake created, on a real
 * database: each moves the status, writes history naming the actor and does its consequences
 * (signed copy, send task, a declined fulfillment cancelled); everything else is refused.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/server/domain/actor";
import { ConflictError, NotFoundError, ValidationError } from "@/server/domain/errors";
import { createTenant, PRESCRIBER, type Tenant } from "@/tests/fixtures";
import { get } from "@/tests/http";
import { withShopSkus } from "@/tests/orders";
import { placeWaitingOrder, runPrescriptionTask, storeRenderedPdf } from "@/tests/prescription-orders";
import { approvePrescription, declinePrescription, holdPrescription, signPrescription } from "./decisions";
import { atSigningKey, prescriptionStorage, readVerified, renderedKey, signedKey } from "@/server/storage/prescription-files";
import { pdfText } from "@/tests/pdf-text";

let t: Tenant;
let other: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let doctor: { id: string };
let nonQesDoctor: { id: string };
let user: Actor;

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  // The sandbox: its doctors sign with their sandbox certificates (signer.ts), no trust service needed here.
  await t.db.organisation.update({ where: { id: t.organisation.id }, data: { sandbox: true } });
  refs = await withShopSkus(t);
  doctor = await t.db.doctor.create({ data: { ...PRESCRIBER, organisationId: t.organisation.id, displayName: "Dr. Weber", canSignQes: true } });
  nonQesDoctor = await t.db.doctor.create({ data: { ...PRESCRIBER, organisationId: t.organisation.id, displayName: "Dr. Lang", canSignQes: false } });
  const u = await t.db.user.create({
    data: { email: `admin-${t.organisation.id}@example.com`, displayName: "Admin", passwordHash: "x", role: "ADMIN", organisationId: t.organisation.id },
  });
  user = { type: "USER", userId: u.id };
});

const org = () => t.organisation.id;
const history = (prescriptionId: string) => t.db.prescriptionHistory.findMany({ where: { prescriptionId }, orderBy: { createdAt: "asc" } });
const sendTasks = (prescriptionId: string) =>
  t.db.backgroundTask.findMany({ where: { name: "pharmacy_manager.send_prescription", payload: { path: ["prescriptionId"], equals: prescriptionId } } });

describe("approve", () => {
  it("moves waiting for doctor to approved, assigns the deciding doctor and records who decided", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    await expect(approvePrescription(org(), prescriptionId, { actor: user })).rejects.toThrow(/No doctor is assigned/);
    await expect(approvePrescription(org(), prescriptionId, { actor: user, doctorId: "no-such-doctor" })).rejects.toBeInstanceOf(ValidationError);
    const foreignDoctor = await other.db.doctor.create({ data: { ...PRESCRIBER, organisationId: other.organisation.id, displayName: "Dr. Fremd" } });
    await expect(approvePrescription(org(), prescriptionId, { actor: user, doctorId: foreignDoctor.id })).rejects.toBeInstanceOf(ValidationError);

    const result = await approvePrescription(org(), prescriptionId, { actor: user, doctorId: doctor.id, note: "looks fine" });
    expect(result).toEqual({ id: prescriptionId, status: "approved", changed: true });
    expect(await t.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId } })).toMatchObject({ status: "approved", doctorId: doctor.id });
    expect(await history(prescriptionId)).toMatchObject([
      { fromStatus: null, toStatus: "waiting for doctor", actorType: "API_KEY" },
      { fromStatus: "waiting for doctor", toStatus: "approved", actorType: "USER", actorUserId: user.type === "USER" ? user.userId : "", note: "looks fine" },
    ]);

    // Again: nothing changes, no history. Another doctor: a conflict.
    const renders = { name: "prescription.render", payload: { path: ["prescriptionId"], equals: prescriptionId } };
    expect(await t.db.backgroundTask.count({ where: renders })).toBe(1);
    expect(await approvePrescription(org(), prescriptionId, { actor: user })).toMatchObject({ status: "approved", changed: false });
    expect(await t.db.backgroundTask.count({ where: renders })).toBe(1);
    await expect(approvePrescription(org(), prescriptionId, { actor: user, doctorId: nonQesDoctor.id })).rejects.toBeInstanceOf(ConflictError);
    expect(await history(prescriptionId)).toHaveLength(2);
    // The order still waits for the doctor's signature.
    const order = await t.db.order.findFirstOrThrow({ where: { prescriptions: { some: { id: prescriptionId } } } });
    expect(order.status).toBe("waiting for doctor");
  });

  it("accepts every spelling of waiting for doctor in stored rows", async () => {
    for (const spelling of ["WAITING_FOR_DOCTOR", "waiting_for_doctor"]) {
      const { prescriptionId } = await placeWaitingOrder(t, refs);
      await t.db.prescription.update({ where: { id: prescriptionId }, data: { status: spelling } });
      const result = await approvePrescription(org(), prescriptionId, { actor: user, doctorId: doctor.id });
      expect(result.status).toBe("approved");
      expect((await history(prescriptionId)).at(-1)).toMatchObject({ fromStatus: spelling, toStatus: "approved" });
    }
  });

  it("does not find another organisation's or a deleted prescription", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    await expect(approvePrescription(other.organisation.id, prescriptionId, { actor: user, doctorId: doctor.id })).rejects.toBeInstanceOf(NotFoundError);
    await t.db.prescription.update({ where: { id: prescriptionId }, data: { deletedAt: new Date() } });
    await expect(approvePrescription(org(), prescriptionId, { actor: user, doctorId: doctor.id })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("serialises concurrent decisions on one prescription: one wins, the other sees its result", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    const results = await Promise.allSettled([
      approvePrescription(org(), prescriptionId, { actor: user, doctorId: doctor.id }),
      declinePrescription(org(), prescriptionId, { actor: user, doctorId: doctor.id }),
    ]);
    const fulfilled = results.filter((r) => r.status === "fulfilled");
    const rows = await history(prescriptionId);
    // Either order is valid (approve then decline, or decline then a refused approve), never a lost update.
    expect(rows.length).toBe(1 + fulfilled.length);
    const final = await t.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId } });
    expect(final.status).toBe(rows.at(-1)!.toStatus);
  });
});

describe("hold", () => {
  it("needs a note, holds waiting and approved prescriptions, and is idempotent", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    await expect(holdPrescription(org(), prescriptionId, { actor: user, note: "  " })).rejects.toBeInstanceOf(ValidationError);
    expect(await holdPrescription(org(), prescriptionId, { actor: user, note: "Need a current blood pressure reading" })).toMatchObject({
      status: "ON_HOLD",
      changed: true,
    });
    expect(await holdPrescription(org(), prescriptionId, { actor: user, note: "again" })).toMatchObject({ status: "ON_HOLD", changed: false });
    expect((await history(prescriptionId)).map((h) => [h.toStatus, h.note])).toEqual([
      ["waiting for doctor", null],
      ["ON_HOLD", "Need a current blood pressure reading"],
    ]);
    const order = await t.db.order.findFirstOrThrow({ where: { prescriptions: { some: { id: prescriptionId } } } });
    expect(order.status).toBe("waiting for doctor");
    // From ON_HOLD the doctor approves; an approved one can be held again.
    expect((await approvePrescription(org(), prescriptionId, { actor: user, doctorId: doctor.id })).status).toBe("approved");
    expect((await holdPrescription(org(), prescriptionId, { actor: user, note: "wait" })).status).toBe("ON_HOLD");
  });
});

describe("sign", () => {
  it("signs only an approved prescription, rendering it again with its signature statement; stores the signed copy and queues sending", async () => {
    const { prescriptionId, orderId } = await placeWaitingOrder(t, refs);
    await expect(signPrescription(org(), prescriptionId, { actor: user, doctorId: doctor.id })).rejects.toThrow(/only one approved can/);
    await approvePrescription(org(), prescriptionId, { actor: user, doctorId: doctor.id });
    expect((await t.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId } })).status).toBe("approved");
    expect(await sendTasks(prescriptionId)).toHaveLength(0);

    // Approval queued a render (the draft names the doctor); the task renders it, not yet signed.
    await runPrescriptionTask(t, "prescription.render", prescriptionId);
    const rendered = await t.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId } });
    expect(rendered.renderedFileKey).toBe(renderedKey(prescriptionId));
    const draft = await prescriptionStorage().get(rendered.renderedFileKey!);
    expect(pdfText(draft)).toContain("Noch nicht signiert");
    expect(await signPrescription(org(), prescriptionId, { actor: user })).toEqual({ id: prescriptionId, status: "signed", changed: true });
    const signed = await t.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId } });
    expect(signed).toMatchObject({ status: "signed", doctorId: doctor.id, signedFileKey: signedKey(prescriptionId), renderedFileKey: atSigningKey(prescriptionId) });
    expect(signed.signedAt).toBeInstanceOf(Date);
    // The document rendered at signing (the doctor's own certificate named in its statement) with that qualified signature.
    const signedPdf = await readVerified(signed.signedFileKey!, signed.signedFileSha256!);
    expect(signedPdf.toString("latin1")).toContain("/adbe.pkcs7.detached");
    const text = pdfText(signedPdf);
    expect(text).toContain("Qualifiziert elektronisch signiert von Dr. Weber am");
    expect(text).not.toContain("Noch nicht signiert");
    // The draft is left as it was (a signing that rolled back would leave it so too).
    expect((await prescriptionStorage().get(renderedKey(prescriptionId))).equals(draft)).toBe(true);
    expect((await history(prescriptionId)).at(-1)).toMatchObject({ fromStatus: "approved", toStatus: "signed", actorType: "USER" });
    expect(await sendTasks(prescriptionId)).toMatchObject([{ state: "PENDING", payload: { prescriptionId, organisationId: org() } }]);
    // Until the task has run, the order waits; signing again changes nothing.
    expect((await t.db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe("waiting for doctor");
    expect(await signPrescription(org(), prescriptionId, { actor: user })).toMatchObject({ status: "signed", changed: false });
    expect(await sendTasks(prescriptionId)).toHaveLength(1);
  });

  it("signs without QES only when the doctor cannot sign with one and a provider of the organisation allows it", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    await approvePrescription(org(), prescriptionId, { actor: user, doctorId: nonQesDoctor.id });
    await storeRenderedPdf(t, prescriptionId);
    await t.db.telemedicineProvider.create({ data: { organisationId: t.organisation.id, displayName: "Tele strict", identifier: "strict" } });
    await expect(signPrescription(org(), prescriptionId, { actor: user })).rejects.toThrow(/cannot sign with a qualified electronic signature/);
    // Another organisation's permissive provider does not count.
    await other.db.telemedicineProvider.create({
      data: { organisationId: other.organisation.id, displayName: "Tele lax", identifier: "lax", allowNonQesSignedPrescriptions: true },
    });
    await expect(signPrescription(org(), prescriptionId, { actor: user })).rejects.toBeInstanceOf(ConflictError);
    expect(await sendTasks(prescriptionId)).toHaveLength(0);

    await t.db.telemedicineProvider.create({
      data: { organisationId: t.organisation.id, displayName: "Tele lax", identifier: "lax", allowNonQesSignedPrescriptions: true },
    });
    expect((await signPrescription(org(), prescriptionId, { actor: user })).status).toBe("NON_QES_SIGNED");
    expect(await sendTasks(prescriptionId)).toHaveLength(1);
    // A QES-capable doctor signing another one still gets "signed".
    const second = await placeWaitingOrder(t, refs);
    await approvePrescription(org(), second.prescriptionId, { actor: user, doctorId: doctor.id });
    await storeRenderedPdf(t, second.prescriptionId);
    expect((await signPrescription(org(), second.prescriptionId, { actor: user })).status).toBe("signed");
  });
});

describe("decline", () => {
  it("declines, cancels the fulfillment waiting on it and leaves the order as prescription declined", async () => {
    const { prescriptionId, orderId } = await placeWaitingOrder(t, refs);
    await holdPrescription(org(), prescriptionId, { actor: user, note: "question" });
    expect(await declinePrescription(org(), prescriptionId, { actor: user, doctorId: doctor.id, note: "contraindicated" })).toMatchObject({
      status: "declined",
      changed: true,
    });
    expect((await history(prescriptionId)).at(-1)).toMatchObject({ fromStatus: "ON_HOLD", toStatus: "declined", note: "contraindicated" });
    const order = await get(`/v1/management/orders/${orderId}`, { key: t.keys.management });
    expect(order.json).toMatchObject({
      status: "prescription declined",
      overall_status: "cancelled",
      fulfillment_orders: [{ status: "CANCELLED", items: [{ status: "CANCELLED" }] }],
      prescriptions: [{ uid: prescriptionId, status: "declined", doctor_uid: doctor.id }],
    });
    expect(await t.db.pharmacyOrder.count({ where: { orderId } })).toBe(0);
    expect(await declinePrescription(org(), prescriptionId, { actor: user })).toMatchObject({ changed: false });
    await expect(approvePrescription(org(), prescriptionId, { actor: user })).rejects.toBeInstanceOf(ConflictError);
  });

  it("lets the rest of a mixed order go on when its prescription is declined", async () => {
    const otc = { external_id: "f-otc", items: [{ external_id: "otc-1", sku_reference: refs.otcReference, quantity: 1, total_paid: { amount: 499, currency: "EUR" } }] };
    const { prescriptionId, orderId } = await placeWaitingOrder(t, refs, { extraFulfillments: [otc] });
    expect(await t.db.pharmacyOrder.count({ where: { orderId } })).toBe(1); // the OTC fulfillment went to its pharmacy at once
    await declinePrescription(org(), prescriptionId, { actor: user, doctorId: doctor.id });
    const order = await t.db.order.findUniqueOrThrow({ where: { id: orderId }, include: { fulfillments: true } });
    expect(order.status).toBe("waiting for pharmacy");
    expect(Object.fromEntries(order.fulfillments.map((f) => [f.externalId, f.status]))).toEqual({ "f-rx": "CANCELLED", "f-otc": "OPEN" });
  });

  it("refuses to decline a signed prescription", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    await approvePrescription(org(), prescriptionId, { actor: user, doctorId: doctor.id });
    await storeRenderedPdf(t, prescriptionId);
    await signPrescription(org(), prescriptionId, { actor: user });
    await expect(declinePrescription(org(), prescriptionId, { actor: user })).rejects.toThrow(/cannot be declined/);
    await expect(holdPrescription(org(), prescriptionId, { actor: user, note: "x" })).rejects.toBeInstanceOf(ConflictError);
  });
});
