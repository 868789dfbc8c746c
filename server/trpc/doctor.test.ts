/**
 * The doctors' workspace over tRPC, on a real database with requests that real order intake
 * created: who may call (doctors only, their organisation's, requests unassigned or their own),
 * the queue rule, signing with the sandbox signer (a signature order intake's QES validation
 * accepts), declining and holding, a double click, and the waiting room.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { trustAnchorsFor } from "@/server/domain/prescriptions/trust-anchors";
import { validateQesPdf } from "@/server/pki/validate-qes-pdf";
import { readVerified } from "@/server/storage/prescription-files";
import { createTenant, PRESCRIBER, type Tenant } from "@/tests/fixtures";
import { addPatient } from "@/tests/meetings";
import { withShopSkus } from "@/tests/orders";
import { placeWaitingOrder, runPrescriptionTask } from "@/tests/prescription-orders";
import { trpcCode } from "@/tests/trpc";
import { createPortalUser } from "@/tests/webhook-logs";
import { registerInWaitingRoom } from "@/server/domain/meetings/register-in-waiting-room";
import { createCaller } from "./router";

let t: Tenant;
let other: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let otherRefs: Awaited<ReturnType<typeof withShopSkus>>;
let doctor: { id: string; displayName: string };
let colleague: { id: string };
let me: PortalSessionUser;
let colleagueUser: PortalSessionUser;
let admin: PortalSessionUser;
let pharmacist: PortalSessionUser;
let otherDoctorUser: PortalSessionUser;
const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  // The sandbox organisation: its doctors sign with the sandbox signer.
  await t.db.organisation.update({ where: { id: t.organisation.id }, data: { sandbox: true } });
  refs = await withShopSkus(t);
  otherRefs = await withShopSkus(other);
  doctor = await t.db.doctor.create({ data: { ...PRESCRIBER, organisationId: t.organisation.id, displayName: "Dr. Anna Weber", canSignQes: true } });
  colleague = await t.db.doctor.create({ data: { ...PRESCRIBER, organisationId: t.organisation.id, displayName: "Dr. Kollege" } });
  const otherDoctor = await other.db.doctor.create({ data: { ...PRESCRIBER, organisationId: other.organisation.id, displayName: "Dr. Fremd" } });
  me = await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id, doctorId: doctor.id });
  colleagueUser = await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id, doctorId: colleague.id });
  admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
  otherDoctorUser = await createPortalUser(other.db, { role: "DOCTOR", organisationId: other.organisation.id, doctorId: otherDoctor.id });
});

const prescription = (id: string) => t.db.prescription.findUniqueOrThrow({ where: { id } });
const history = (prescriptionId: string) => t.db.prescriptionHistory.findMany({ where: { prescriptionId }, orderBy: { createdAt: "asc" } });

describe("authorisation", () => {
  it("refuses the signed out, admins and pharmacists on every procedure, and answers another organisation's request as not found with nothing written", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    const calls = (user: PortalSessionUser | null) => [
      () => as(user).doctor.requests.queue(),
      () => as(user).doctor.requests.get({ prescriptionUid: prescriptionId }),
      () => as(user).doctor.requests.pdf({ prescriptionUid: prescriptionId }),
      () => as(user).doctor.requests.sign({ prescriptionUid: prescriptionId }),
      () => as(user).doctor.requests.decline({ prescriptionUid: prescriptionId, reason: "no" }),
      () => as(user).doctor.requests.hold({ prescriptionUid: prescriptionId, note: "wait" }),
      () => as(user).doctor.waitingRoom.get(),
      () => as(user).doctor.waitingRoom.takeNext(),
      () => as(user).doctor.waitingRoom.complete({ queueUid: prescriptionId }),
      () => as(user).doctor.statistics.get({ from: 1_700_000_000, to: 1_800_000_000 }),
    ];
    for (const call of calls(null)) expect(await trpcCode(call())).toBe("UNAUTHORIZED");
    for (const call of calls(admin)) expect(await trpcCode(call())).toBe("FORBIDDEN");
    for (const call of calls(pharmacist)) expect(await trpcCode(call())).toBe("FORBIDDEN");
    // A DOCTOR user not bound to a doctor has no workspace.
    const unbound = await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id });
    expect(await trpcCode(as(unbound).doctor.requests.queue())).toBe("FORBIDDEN");

    // Another organisation's doctor: not found (a request, or a waiting-room entry), and not in their queue.
    for (const call of [...calls(otherDoctorUser).slice(1, 6), calls(otherDoctorUser)[8]]) expect(await trpcCode(call())).toBe("NOT_FOUND");
    expect((await as(otherDoctorUser).doctor.requests.queue()).items.map((i) => i.uid)).not.toContain(prescriptionId);
    expect(await prescription(prescriptionId)).toMatchObject({ status: "waiting for doctor", doctorId: null, signedFileKey: null });
    expect(await history(prescriptionId)).toHaveLength(1);
  });

  it("refuses a doctor whose user was deactivated", async () => {
    const gone = await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id, doctorId: (await t.db.doctor.create({ data: { ...PRESCRIBER, organisationId: t.organisation.id, displayName: "Dr. Weg" } })).id });
    // Signed in and active, the doctor reads the queue; deactivated, not any more.
    await expect(as(gone).doctor.requests.queue()).resolves.toMatchObject({ total: expect.any(Number), items: expect.any(Array) });
    await t.db.user.update({ where: { id: gone.id }, data: { deactivatedAt: new Date() } });
    expect(await trpcCode(as(gone).doctor.requests.queue())).toBe("UNAUTHORIZED");
    expect(await trpcCode(as(gone).doctor.waitingRoom.takeNext())).toBe("UNAUTHORIZED");
  });

  it("does not offer, show or decide a request assigned to another doctor", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    await as(colleagueUser).doctor.requests.hold({ prescriptionUid: prescriptionId, note: "I ask the patient" });
    expect(await prescription(prescriptionId)).toMatchObject({ status: "ON_HOLD", doctorId: colleague.id });
    expect((await as(me).doctor.requests.queue()).items.map((i) => i.uid)).not.toContain(prescriptionId);
    expect((await as(colleagueUser).doctor.requests.queue()).items.find((i) => i.uid === prescriptionId)).toMatchObject({ assignedToMe: true, status: "ON_HOLD" });
    for (const call of [
      () => as(me).doctor.requests.get({ prescriptionUid: prescriptionId }),
      () => as(me).doctor.requests.pdf({ prescriptionUid: prescriptionId }),
      () => as(me).doctor.requests.sign({ prescriptionUid: prescriptionId }),
      () => as(me).doctor.requests.decline({ prescriptionUid: prescriptionId, reason: "no" }),
      () => as(me).doctor.requests.hold({ prescriptionUid: prescriptionId, note: "mine" }),
    ]) {
      expect(await trpcCode(call())).toBe("NOT_FOUND");
    }
    expect(await prescription(prescriptionId)).toMatchObject({ status: "ON_HOLD", doctorId: colleague.id });
    expect(await history(prescriptionId)).toHaveLength(2);
  });
});

describe("the queue", () => {
  it("lists the organisation's doctor requests awaiting a decision, unassigned or mine, oldest first", async () => {
    const first = await placeWaitingOrder(t, refs);
    const second = await placeWaitingOrder(t, refs);
    const held = await placeWaitingOrder(t, refs);
    await as(me).doctor.requests.hold({ prescriptionUid: held.prescriptionId, note: "blood pressure?" });
    const declined = await placeWaitingOrder(t, refs);
    await as(me).doctor.requests.decline({ prescriptionUid: declined.prescriptionId, reason: "contraindicated" });
    // Not from the doctor queue (source EXTERNAL: signed elsewhere): not offered.
    const adminMade = await placeWaitingOrder(t, refs);
    await t.db.prescription.update({ where: { id: adminMade.prescriptionId }, data: { source: "EXTERNAL" } });
    // Another organisation's.
    const foreign = await placeWaitingOrder(other, otherRefs);

    const queue = await as(me).doctor.requests.queue();
    const uids = queue.items.map((i) => i.uid);
    expect(uids).toEqual(expect.arrayContaining([first.prescriptionId, second.prescriptionId, held.prescriptionId]));
    for (const absent of [declined.prescriptionId, adminMade.prescriptionId, foreign.prescriptionId]) expect(uids).not.toContain(absent);
    expect(uids.indexOf(first.prescriptionId)).toBeLessThan(uids.indexOf(second.prescriptionId));
    const createdAts = queue.items.map((i) => i.createdAt);
    expect([...createdAts].sort((a, b) => a - b)).toEqual(createdAts);
    expect(queue.items.find((i) => i.uid === first.prescriptionId)).toMatchObject({
      status: "waiting for doctor",
      assignedToMe: false,
      withAnamnesis: true,
      order: { uid: first.orderId },
      items: [{ quantity: 2 }],
    });
    expect(queue.items.find((i) => i.uid === held.prescriptionId)).toMatchObject({ status: "ON_HOLD", assignedToMe: true });
    expect(queue.total).toBe(queue.items.length);
  });

  it("shows a request with the patient, the items and the anamnesis with its questionnaire's model", async () => {
    const { prescriptionId, anamnesisId } = await placeWaitingOrder(t, refs);
    const field = await t.db.patientFieldDefinition.create({ data: { organisationId: t.organisation.id, key: `height-${prescriptionId.slice(0, 6)}`, displayName: "Height (cm)" } });
    const p = await prescription(prescriptionId);
    await t.db.patientProperty.create({ data: { patientId: p.patientId, fieldId: field.id, value: "181", source: "shop" } });
    const model = { pages: [{ name: "p", elements: [{ type: "text", name: "smoker", title: "Do you smoke?" }] }] };
    const response = await t.db.questionnaireResponse.findUniqueOrThrow({ where: { id: anamnesisId } });
    await t.db.questionnaire.update({ where: { id: response.questionnaireId }, data: { model } });
    await t.db.questionnaireResponse.update({ where: { id: anamnesisId }, data: { data: { smoker: "no" } } });

    const request = await as(me).doctor.requests.get({ prescriptionUid: prescriptionId });
    expect(request).toMatchObject({ uid: prescriptionId, status: "waiting for doctor", awaitingDecision: true, doctor: null });
    expect(request.patient.fields).toEqual([{ key: field.key, label: "Height (cm)", value: "181" }]);
    expect(request.items).toMatchObject([
      { sku: { uid: t.rxSku.id, pzn: "33333333" }, quantity: 2, anamnesis: { uid: anamnesisId, status: "COMPLETED", answers: { smoker: "no" }, questionnaire: { model } } },
    ]);
    // Before signing: a preview of the PDF signing will produce.
    const pdf = await as(me).doctor.requests.pdf({ prescriptionUid: prescriptionId });
    expect(pdf.signed).toBe(false);
    expect(Buffer.from(pdf.contentBase64, "base64").subarray(0, 5).toString()).toBe("%PDF-");
  });
});

describe("signing", () => {
  it("approves and signs as the doctor with the sandbox signer: a signature order intake's QES validation accepts, then the pharmacy order", async () => {
    const { prescriptionId, orderId } = await placeWaitingOrder(t, refs);
    expect(await as(me).doctor.requests.sign({ prescriptionUid: prescriptionId })).toEqual({ uid: prescriptionId, status: "signed", changed: true });
    const signed = await prescription(prescriptionId);
    expect(signed).toMatchObject({ status: "signed", doctorId: doctor.id });
    expect(await history(prescriptionId)).toMatchObject([
      { toStatus: "waiting for doctor" },
      { fromStatus: "waiting for doctor", toStatus: "approved", actorType: "USER", actorUserId: me.id },
      { fromStatus: "approved", toStatus: "signed", actorType: "USER", actorUserId: me.id },
    ]);

    // The signed copy carries a PAdES signature by the doctor's own sandbox certificate, which the
    // sandbox organisation trusts (order intake path (c)) and an organisation trusting only the
    // configured anchors does not.
    const pdf = await readVerified(signed.signedFileKey!, signed.signedFileSha256!);
    const verdict = await validateQesPdf(pdf, { trustAnchors: await trustAnchorsFor({ sandbox: true }) });
    expect(verdict).toMatchObject({ valid: true, signatures: 1, signer: { commonName: "Dr. Anna Weber" } });
    expect(await validateQesPdf(pdf, { trustAnchors: await trustAnchorsFor({ sandbox: false }) })).toMatchObject({ valid: false });
    // The signed PDF names the signing doctor (rendered at signing).
    expect(pdf.toString("latin1")).toContain("/adbe.pkcs7.detached");
    const viewed = await as(me).doctor.requests.pdf({ prescriptionUid: prescriptionId });
    expect(viewed.signed).toBe(true);
    expect(Buffer.from(viewed.contentBase64, "base64").equals(pdf)).toBe(true);

    // Sending to the pharmacy (the queued task) opens the pharmacy order at the pharmacy with stock.
    await runPrescriptionTask(t, "pharmacy_manager.send_prescription", prescriptionId);
    expect(await t.db.pharmacyOrder.findMany({ where: { orderId }, select: { pharmacyId: true, prescriptionId: true } })).toEqual([
      { pharmacyId: t.pharmacy.id, prescriptionId },
    ]);
    // It has left the queue; the request page still shows it, signed.
    expect((await as(me).doctor.requests.queue()).items.map((i) => i.uid)).not.toContain(prescriptionId);
    expect(await as(me).doctor.requests.get({ prescriptionUid: prescriptionId })).toMatchObject({ status: "signed", awaitingDecision: false, doctor: { isMe: true } });
  });

  it("signs once under a double click: one approval, one signature, one send task, one pharmacy order", async () => {
    const { prescriptionId, orderId } = await placeWaitingOrder(t, refs);
    const results = await Promise.all([1, 2, 3].map(() => as(me).doctor.requests.sign({ prescriptionUid: prescriptionId })));
    expect(results.map((r) => r.status)).toEqual(["signed", "signed", "signed"]);
    expect(results.filter((r) => r.changed)).toHaveLength(1);
    const entries = await history(prescriptionId);
    expect(entries.filter((h) => h.toStatus === "approved")).toHaveLength(1);
    expect(entries.filter((h) => h.toStatus === "signed")).toHaveLength(1);
    expect(await t.db.backgroundTask.count({ where: { name: "pharmacy_manager.send_prescription", payload: { path: ["prescriptionId"], equals: prescriptionId } } })).toBe(1);
    await runPrescriptionTask(t, "pharmacy_manager.send_prescription", prescriptionId);
    expect(await t.db.pharmacyOrder.count({ where: { orderId } })).toBe(1);
  });

  it("refuses to sign with a QES outside the sandbox without a trust service (422), writing nothing", async () => {
    // server/trpc/remote-signing.test.ts signs outside the sandbox with a linked credential.
    const plainDoctor = await other.db.doctor.create({ data: { ...PRESCRIBER, organisationId: other.organisation.id, displayName: "Dr. Ohne" } });
    const plain = await createPortalUser(other.db, { role: "DOCTOR", organisationId: other.organisation.id, doctorId: plainDoctor.id });
    const { prescriptionId } = await placeWaitingOrder(other, otherRefs);
    expect(await trpcCode(as(plain).doctor.requests.sign({ prescriptionUid: prescriptionId }))).toBe("UNPROCESSABLE_CONTENT");
    await expect(as(plain).doctor.requests.sign({ prescriptionUid: prescriptionId, otp: "123456" })).rejects.toThrow(/^This organisation has no qualified trust service/);
    expect(await other.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId } })).toMatchObject({ status: "waiting for doctor", signedFileKey: null, doctorId: null });
    expect(await other.db.prescriptionHistory.count({ where: { prescriptionId } })).toBe(1);
  });

  it("signs without a QES where the doctor cannot sign one and a provider allows it", async () => {
    const lang = await other.db.doctor.create({ data: { ...PRESCRIBER, organisationId: other.organisation.id, displayName: "Dr. Lang", canSignQes: false } });
    const user = await createPortalUser(other.db, { role: "DOCTOR", organisationId: other.organisation.id, doctorId: lang.id });
    const { prescriptionId } = await placeWaitingOrder(other, otherRefs);
    expect(await trpcCode(as(user).doctor.requests.sign({ prescriptionUid: prescriptionId }))).toBe("CONFLICT");
    expect((await other.db.prescription.findUniqueOrThrow({ where: { id: prescriptionId } })).status).toBe("waiting for doctor");
    await other.db.telemedicineProvider.create({
      data: { organisationId: other.organisation.id, displayName: "Lax", identifier: `lax-${prescriptionId.slice(0, 6)}`, allowNonQesSignedPrescriptions: true },
    });
    expect((await as(user).doctor.requests.sign({ prescriptionUid: prescriptionId })).status).toBe("NON_QES_SIGNED");
  });
});

describe("declining and holding", () => {
  it("needs a reason to decline, records it, and cancels the fulfillment", async () => {
    const { prescriptionId, orderId } = await placeWaitingOrder(t, refs);
    expect(await trpcCode(as(me).doctor.requests.decline({ prescriptionUid: prescriptionId, reason: "   " }))).toBe("BAD_REQUEST");
    // The refusal names the field (the page shows it under "Reason").
    const refused = await as(me).doctor.requests.decline({ prescriptionUid: prescriptionId, reason: " " }).then(() => null, (error: { cause?: { issues?: { path: unknown[] }[] } }) => error);
    expect(refused?.cause?.issues?.map((i) => i.path)).toEqual([["reason"]]);
    expect((await prescription(prescriptionId)).status).toBe("waiting for doctor");

    expect(await as(me).doctor.requests.decline({ prescriptionUid: prescriptionId, reason: "Interaction with current medication" })).toEqual({
      uid: prescriptionId,
      status: "declined",
      changed: true,
    });
    expect((await history(prescriptionId)).at(-1)).toMatchObject({ toStatus: "declined", note: "Interaction with current medication", actorUserId: me.id });
    expect(await prescription(prescriptionId)).toMatchObject({ doctorId: doctor.id });
    expect((await t.db.order.findUniqueOrThrow({ where: { id: orderId } })).status).toBe("prescription declined");
    // A declined request cannot be signed.
    expect(await trpcCode(as(me).doctor.requests.sign({ prescriptionUid: prescriptionId }))).toBe("CONFLICT");
  });

  it("puts a request on hold with a note, then signs it", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    expect(await trpcCode(as(me).doctor.requests.hold({ prescriptionUid: prescriptionId, note: "" }))).toBe("BAD_REQUEST");
    expect(await as(me).doctor.requests.hold({ prescriptionUid: prescriptionId, note: "Ask for a blood test" })).toMatchObject({ status: "ON_HOLD", changed: true });
    expect((await history(prescriptionId)).at(-1)).toMatchObject({ toStatus: "ON_HOLD", note: "Ask for a blood test", actorUserId: me.id });
    expect(await prescription(prescriptionId)).toMatchObject({ doctorId: doctor.id });
    expect((await as(me).doctor.requests.sign({ prescriptionUid: prescriptionId })).status).toBe("signed");
  });
});

describe("orders on hold (issue 23, rule 1)", () => {
  it("keeps an order placed on hold away from the doctors until the admin releases it: out of the queue, every decision refused, then in and signable", async () => {
    const { prescriptionId, orderId } = await placeWaitingOrder(t, refs, { customerId: "held-customer", overrides: { on_hold: true, hold_comment: "Check the address" } });
    const queued = async () => (await as(me).doctor.requests.queue()).items.map((i) => i.uid);
    expect(await queued()).not.toContain(prescriptionId);
    // The page opens (a link from elsewhere) and says why there is nothing to do.
    expect(await as(me).doctor.requests.get({ prescriptionUid: prescriptionId })).toMatchObject({ awaitingDecision: true, order: { onHold: true } });
    const refusal = await as(me).doctor.requests.sign({ prescriptionUid: prescriptionId }).then(() => null, (error: { code?: string; message: string }) => error);
    expect(refusal).toMatchObject({ code: "CONFLICT", message: expect.stringContaining("on hold") });
    expect(await trpcCode(as(me).doctor.requests.decline({ prescriptionUid: prescriptionId, reason: "No" }))).toBe("CONFLICT");
    expect(await trpcCode(as(me).doctor.requests.hold({ prescriptionUid: prescriptionId, note: "Later" }))).toBe("CONFLICT");
    expect(await prescription(prescriptionId)).toMatchObject({ status: "waiting for doctor", doctorId: null, signedFileKey: null });
    expect(await history(prescriptionId)).toHaveLength(1);

    await as(admin).admin.orders.releaseHold({ uid: orderId });
    expect(await queued()).toContain(prescriptionId);
    expect(await as(me).doctor.requests.get({ prescriptionUid: prescriptionId })).toMatchObject({ order: { onHold: false } });
    expect((await as(me).doctor.requests.sign({ prescriptionUid: prescriptionId })).status).toBe("signed");
    await runPrescriptionTask(t, "pharmacy_manager.send_prescription", prescriptionId);
    expect(await t.db.pharmacyOrder.count({ where: { orderId } })).toBe(1);
  });
});

describe("dosage instructions", () => {
  const lineOf = async (prescriptionId: string) => (await t.db.prescriptionLine.findFirstOrThrow({ where: { prescriptionId } })).id;

  it("says what signing lacks, stores the doctor's dosage instructions (audited, the draft rendered again), then signs", async () => {
    await t.db.sku.update({ where: { id: t.rxSku.id }, data: { dosage: "1 tablet daily" } });
    const { prescriptionId } = await placeWaitingOrder(t, refs, { customerId: "dosage-customer", readyToSign: false });
    const { patientId } = await prescription(prescriptionId);
    const before = await as(me).doctor.requests.get({ prescriptionUid: prescriptionId });
    expect(before.items).toMatchObject([{ position: 1, medicine: "Finasteride 1 mg", dosage: null, suggestedDosage: "1 tablet daily" }]);
    expect(before.cannotSign).toBe("Cannot sign: the patient has no date of birth, item 1 (Finasteride 1 mg) has no dosage instructions.");
    // In the caller's language; signing refuses with the same words.
    expect((await createCaller({ user: me, locale: "de" }).doctor.requests.get({ prescriptionUid: prescriptionId })).cannotSign).toBe(
      "Signieren nicht möglich: bei der Patientin oder dem Patienten fehlt das Geburtsdatum, bei Position 1 (Finasteride 1 mg) fehlt die Dosierung.",
    );
    const refused = await as(me)
      .doctor.requests.sign({ prescriptionUid: prescriptionId })
      .then(() => null, (error: { code?: string; message: string }) => error);
    expect(refused).toMatchObject({ code: "UNPROCESSABLE_CONTENT", message: before.cannotSign });
    expect(await prescription(prescriptionId)).toMatchObject({ status: "waiting for doctor", doctorId: null });

    const lineUid = await lineOf(prescriptionId);
    expect(await as(me).doctor.requests.setDosage({ prescriptionUid: prescriptionId, lines: [{ lineUid, dosage: " 1 tablet every morning " }] })).toEqual({
      uid: prescriptionId,
      changed: 1,
      lines: [{ uid: lineUid, dosage: "1 tablet every morning" }],
    });
    expect((await t.db.prescriptionLine.findUniqueOrThrow({ where: { id: lineUid } })).dosage).toBe("1 tablet every morning");
    expect(await t.db.auditEvent.findMany({ where: { entityId: prescriptionId }, select: { entityType: true, action: true, summary: true, actorUserId: true } })).toEqual([
      { entityType: "prescription", action: "dosage_instructions_changed", summary: 'Dosage instructions changed: item 1 (Finasteride 1 mg) "1 tablet every morning"', actorUserId: me.id },
    ]);
    expect(await t.db.backgroundTask.count({ where: { name: "prescription.render", payload: { path: ["prescriptionId"], equals: prescriptionId } } })).toBe(1);
    // The same again changes and records nothing.
    expect((await as(me).doctor.requests.setDosage({ prescriptionUid: prescriptionId, lines: [{ lineUid, dosage: "1 tablet every morning" }] })).changed).toBe(0);
    expect(await t.db.auditEvent.count({ where: { entityId: prescriptionId } })).toBe(1);

    await t.db.patientProfile.update({ where: { id: patientId }, data: { dateOfBirth: new Date("1990-01-15T00:00:00Z") } });
    expect((await as(me).doctor.requests.get({ prescriptionUid: prescriptionId })).cannotSign).toBeNull();
    expect((await as(me).doctor.requests.sign({ prescriptionUid: prescriptionId })).status).toBe("signed");
    expect((await as(me).doctor.requests.get({ prescriptionUid: prescriptionId })).items).toMatchObject([{ dosage: "1 tablet every morning" }]);
    await t.db.sku.update({ where: { id: t.rxSku.id }, data: { dosage: null } });
  });

  it("refuses a signed prescription, another doctor's request, another prescription's line and empty instructions", async () => {
    const signed = await placeWaitingOrder(t, refs);
    const signedLine = await lineOf(signed.prescriptionId);
    await as(me).doctor.requests.sign({ prescriptionUid: signed.prescriptionId });
    const refusal = await as(me).doctor.requests
      .setDosage({ prescriptionUid: signed.prescriptionId, lines: [{ lineUid: signedLine, dosage: "twice daily" }] })
      .then(() => null, (error: { code?: string; message: string }) => error);
    expect(refusal).toMatchObject({ code: "CONFLICT", message: expect.stringContaining('status "signed" cannot be changed') });

    const theirs = await placeWaitingOrder(t, refs);
    const theirLine = await lineOf(theirs.prescriptionId);
    await as(colleagueUser).doctor.requests.hold({ prescriptionUid: theirs.prescriptionId, note: "mine" });
    expect(await trpcCode(as(me).doctor.requests.setDosage({ prescriptionUid: theirs.prescriptionId, lines: [{ lineUid: theirLine, dosage: "twice daily" }] }))).toBe("NOT_FOUND");
    // Another organisation's doctor does not find it either; an admin has no door here.
    expect(await trpcCode(as(otherDoctorUser).doctor.requests.setDosage({ prescriptionUid: theirs.prescriptionId, lines: [{ lineUid: theirLine, dosage: "x" }] }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(admin).doctor.requests.setDosage({ prescriptionUid: theirs.prescriptionId, lines: [{ lineUid: theirLine, dosage: "x" }] }))).toBe("FORBIDDEN");
    // The colleague may; a line of another prescription and blank instructions are field errors.
    const mixed = await as(colleagueUser).doctor.requests
      .setDosage({ prescriptionUid: theirs.prescriptionId, lines: [{ lineUid: signedLine, dosage: "twice daily" }] })
      .then(() => null, (error: { code?: string; cause?: { fields?: unknown } }) => error);
    expect(mixed).toMatchObject({ code: "BAD_REQUEST", cause: { fields: { lines: { "0": { line_uid: ["No item of this prescription has this uid."] } } } } });
    expect(await trpcCode(as(colleagueUser).doctor.requests.setDosage({ prescriptionUid: theirs.prescriptionId, lines: [{ lineUid: theirLine, dosage: "  " }] }))).toBe("BAD_REQUEST");
    expect((await t.db.prescriptionLine.findUniqueOrThrow({ where: { id: theirLine } })).dosage).toBe("1 tablet daily");
    expect((await t.db.prescriptionLine.findUniqueOrThrow({ where: { id: signedLine } })).dosage).toBe("1 tablet daily");
    expect((await as(colleagueUser).doctor.requests.setDosage({ prescriptionUid: theirs.prescriptionId, lines: [{ lineUid: theirLine, dosage: "twice daily" }] })).changed).toBe(1);
  });
});

describe("waiting room", () => {
  it("takes the next patient in line, shows them and completes the consultation", async () => {
    const room = await createTenant();
    const roomDoctor = await room.db.doctor.create({ data: { ...PRESCRIBER, organisationId: room.organisation.id, displayName: "Dr. Raum" } });
    const user = await createPortalUser(room.db, { role: "DOCTOR", organisationId: room.organisation.id, doctorId: roomDoctor.id });
    expect(await as(user).doctor.waitingRoom.get()).toEqual({ current: null, total: 0, waiting: [] });
    expect(await as(user).doctor.waitingRoom.takeNext()).toBeNull();

    const first = await addPatient(room);
    const second = await addPatient(room);
    const a = await registerInWaitingRoom(room.organisation.id, { shopId: room.shop.id, patientId: first.id, visitReason: "Hair loss" });
    const b = await registerInWaitingRoom(room.organisation.id, { shopId: room.shop.id, patientId: second.id });
    const before = await as(user).doctor.waitingRoom.get();
    expect(before.waiting[0]?.patient.name).toBe("Max Muster");
    expect(before.waiting.map((e) => [e.queueUid, e.position, e.takeableByMe])).toEqual([
      [a.standing.id, 1, true],
      [b.standing.id, 2, true],
    ]);

    const taken = await as(user).doctor.waitingRoom.takeNext();
    expect(taken).toMatchObject({ queueUid: a.standing.id, videoRoomId: expect.stringMatching(/^vr_/) });
    const meeting = await room.db.meeting.findUniqueOrThrow({ where: { id: taken!.meetingUid } });
    expect(meeting).toMatchObject({ doctorId: roomDoctor.id, patientId: first.id, kind: "ON_DEMAND" });
    expect(await room.db.outboxEvent.count({ where: { eventType: "patient_doctor_meeting_updated", organisationId: room.organisation.id } })).toBe(1);
    const during = await as(user).doctor.waitingRoom.get();
    expect(during.current).toMatchObject({ queueUid: a.standing.id, meetingUid: meeting.id, visitReason: "Hair loss" });
    expect(during.waiting.map((e) => e.queueUid)).toEqual([b.standing.id]);
    // One patient at a time.
    expect(await trpcCode(as(user).doctor.waitingRoom.takeNext())).toBe("CONFLICT");
    // Another organisation's doctor cannot complete it.
    expect(await trpcCode(as(otherDoctorUser).doctor.waitingRoom.complete({ queueUid: a.standing.id }))).toBe("NOT_FOUND");

    expect(await as(user).doctor.waitingRoom.complete({ queueUid: a.standing.id })).toEqual({ queueUid: a.standing.id, changed: true });
    expect(await as(user).doctor.waitingRoom.complete({ queueUid: a.standing.id })).toEqual({ queueUid: a.standing.id, changed: false });
    expect((await as(user).doctor.waitingRoom.get()).current).toBeNull();
    expect((await room.db.meeting.findUniqueOrThrow({ where: { id: meeting.id } })).endsAt).toBeInstanceOf(Date);

    // The completed consultation counts in the doctor's statistics.
    const now = Math.floor(Date.now() / 1000);
    expect(await as(user).doctor.statistics.get({ from: now - 3600, to: now + 60 })).toMatchObject({ consultationsCompleted: 1, signed: 0 });
    expect(await trpcCode(as(user).doctor.statistics.get({ from: now, to: now - 1 }))).toBe("BAD_REQUEST");
  });
});
