/**
 * The Sign centre's batch signing on a real database, with real crypto, against the stand-in trust
 * service (tests/csc-stand-in.ts, counting its requests): a batch takes ONE credentials/authorize
 * (numSignatures = the batch) and ONE signatures/signHash; a wrong one-time password signs none; an
 * incomplete prescription is left out and the others signed; two batches over the same
 * prescriptions (two tabs) sign each exactly once; one signed or claimed meanwhile is skipped.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import type { Actor } from "@/server/domain/actor";
import { ConflictError } from "@/server/domain/errors";
import { validateQesPdf } from "@/server/pki/validate-qes-pdf";
import { createCaller } from "@/server/trpc/router";
import { prescriptionStorage, readVerified, signedKey } from "@/server/storage/prescription-files";
import { startCscStandIn, type CscStandIn } from "@/tests/csc-stand-in";
import { createTenant, PRESCRIBER, type Tenant } from "@/tests/fixtures";
import { withShopSkus } from "@/tests/orders";
import { pdfText } from "@/tests/pdf-text";
import { placeWaitingOrder } from "@/tests/prescription-orders";
import { useEnv } from "@/tests/wait";
import { createPortalUser } from "@/tests/webhook-logs";
import { approvePrescription, declinePrescription, signPrescription } from "./decisions";
import { signApprovedPrescriptions, signingProgress, type BatchOutcome } from "./sign-approved";

useEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });

let standIn: CscStandIn;
let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let weber: { id: string };
let roth: { id: string };
let weberActor: Actor;
let rothActor: Actor;
let weberCredential: string;
let weberUser: PortalSessionUser;
let rothUser: PortalSessionUser;
const as = (user: PortalSessionUser) => createCaller({ user, locale: "en" });

const org = () => t.organisation.id;
const calls = () => [standIn.calls("credentials/authorize").length, standIn.calls("signatures/signHash").length];
const prescription = (id: string) => t.db.prescription.findUniqueOrThrow({ where: { id } });
const signedHistory = (prescriptionId: string) => t.db.prescriptionHistory.count({ where: { prescriptionId, toStatus: "signed" } });
const sendTasks = (prescriptionId: string) =>
  t.db.backgroundTask.count({ where: { name: "pharmacy_manager.send_prescription", payload: { path: ["prescriptionId"], equals: prescriptionId } } });

/** n requests approved by the doctor (ready to sign). */
async function approved(n: number, doctor: { id: string }, actor: Actor): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    await approvePrescription(org(), prescriptionId, { actor, doctorId: doctor.id });
    ids.push(prescriptionId);
  }
  return ids;
}
const outcomesOf = (outcomes: BatchOutcome[]) => outcomes.map((o) => o.outcome);

beforeAll(async () => {
  standIn = await startCscStandIn({ name: "Stand-in QTSP" });
  process.env.QES_TRUST_ANCHORS = standIn.caPem;
  (await import("@/server/config")).reloadConfig();
  t = await createTenant();
  refs = await withShopSkus(t);
  weber = await t.db.doctor.create({ data: { ...PRESCRIBER, organisationId: t.organisation.id, displayName: "Dr. Anna Weber" } });
  roth = await t.db.doctor.create({ data: { ...PRESCRIBER, organisationId: t.organisation.id, displayName: "Dr. Jonas Roth" } });
  weberUser = await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id, doctorId: weber.id });
  rothUser = await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id, doctorId: roth.id });
  const admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
  weberActor = { type: "USER", userId: weberUser.id };
  rothActor = { type: "USER", userId: rothUser.id };
  weberCredential = await standIn.addCredential({ userId: "weber", commonName: "Dr. Anna Weber" });
  // A PIN credential: two tabs of one doctor can each authorise (a one-time password exists once at a time).
  const rothCredential = await standIn.addCredential({ userId: "roth", commonName: "Dr. Jonas Roth", factor: "PIN", pin: "4711" });
  await as(admin).admin.trustService.save({ displayName: "Stand-in QTSP", baseUrl: standIn.baseUrl, clientId: standIn.clientId, clientSecret: standIn.clientSecret });
  await as(weberUser).doctor.signing.link({ credentialId: weberCredential });
  await as(rothUser).doctor.signing.link({ credentialId: rothCredential });
});
afterAll(async () => {
  delete process.env.QES_TRUST_ANCHORS;
  (await import("@/server/config")).reloadConfig();
  await standIn.close();
});

describe("signApprovedPrescriptions", () => {
  it("signs a batch of 5 with ONE authorize (numSignatures 5) and ONE signHash; each signed copy verifies in the doctor's name", async () => {
    const ids = await approved(5, weber, weberActor);
    const before = calls();
    const result = await signApprovedPrescriptions(org(), { id: weber.id, actor: weberActor }, ids, { otp: standIn.issueOtp(weberCredential) });
    expect(outcomesOf(result.outcomes)).toEqual(["signed", "signed", "signed", "signed", "signed"]);
    expect(calls().map((n, i) => n - before[i])).toEqual([1, 1]);
    const authorize = standIn.calls("credentials/authorize").at(-1)!.body as { numSignatures: number; hashes: string[] };
    expect(authorize.numSignatures).toBe(5);
    expect(authorize.hashes).toHaveLength(5);
    expect((standIn.calls("signatures/signHash").at(-1)!.body as { hashes: string[] }).hashes).toHaveLength(5);
    for (const id of ids) {
      const p = await prescription(id);
      expect(p).toMatchObject({ status: "signed", doctorId: weber.id, signingClaimId: null, signingClaimedUntil: null });
      const pdf = await readVerified(p.signedFileKey!, p.signedFileSha256!);
      expect(await validateQesPdf(pdf, { trustAnchors: [standIn.caPem] })).toMatchObject({ valid: true, signer: { commonName: "Dr. Anna Weber" } });
      expect(pdfText(pdf)).toContain("Qualifiziert elektronisch signiert von Dr. Anna Weber am");
      expect(await signedHistory(id)).toBe(1);
      expect(await sendTasks(id)).toBe(1);
    }
    // Progress of the finished batch is told to its doctor only.
    expect(signingProgress(org(), weber.id, result.claimId)).toMatchObject({ phase: "done", total: 5, claimed: 5, rendered: 5, stored: 5 });
    expect(signingProgress(org(), roth.id, result.claimId)).toBeNull();
  });

  it("a wrong one-time password signs none: each 'not signed' with the trust service's reason, claims released, nothing stored", async () => {
    const ids = await approved(3, weber, weberActor);
    const otp = standIn.issueOtp(weberCredential);
    const result = await signApprovedPrescriptions(org(), { id: weber.id, actor: weberActor }, ids, { otp: otp === "000000" ? "111111" : "000000" });
    expect(result.outcomes).toEqual(ids.map((id) => ({ id, outcome: "not signed", reason: expect.objectContaining({ key: "trustService.otpRefused" }) })));
    for (const id of ids) {
      expect(await prescription(id)).toMatchObject({ status: "approved", signedFileKey: null, signingClaimId: null });
      expect(await prescriptionStorage().exists(signedKey(id))).toBe(false);
      expect(await sendTasks(id)).toBe(0);
    }
    // The right one then signs them all.
    const retry = await signApprovedPrescriptions(org(), { id: weber.id, actor: weberActor }, ids, { otp: standIn.issueOtp(weberCredential) });
    expect(outcomesOf(retry.outcomes)).toEqual(["signed", "signed", "signed"]);
  });

  it("leaves out a prescription missing a mandatory element and signs the others", async () => {
    const ids = await approved(3, weber, weberActor);
    await t.db.prescriptionLine.updateMany({ where: { prescriptionId: ids[1] }, data: { dosage: null } });
    const before = calls();
    const result = await signApprovedPrescriptions(org(), { id: weber.id, actor: weberActor }, ids, { otp: standIn.issueOtp(weberCredential) });
    expect(outcomesOf(result.outcomes)).toEqual(["signed", "incomplete", "signed"]);
    expect(result.outcomes[1]).toMatchObject({ reason: { key: "prescriptions.incomplete" } });
    expect((standIn.calls("credentials/authorize").at(-1)!.body as { numSignatures: number }).numSignatures).toBe(2);
    expect(calls().map((n, i) => n - before[i])).toEqual([1, 1]);
    expect(await prescription(ids[1])).toMatchObject({ status: "approved", signedFileKey: null, signingClaimId: null });
  });

  it("two batches over the same prescriptions at once (two tabs) sign each exactly once", async () => {
    const ids = await approved(6, roth, rothActor);
    const before = calls();
    const [a, b] = await Promise.all([
      signApprovedPrescriptions(org(), { id: roth.id, actor: rothActor }, ids, { pin: "4711" }),
      signApprovedPrescriptions(org(), { id: roth.id, actor: rothActor }, [...ids].reverse(), { pin: "4711" }),
    ]);
    const byId = (r: typeof a) => new Map(r.outcomes.map((o) => [o.id, o.outcome]));
    const [ofA, ofB] = [byId(a), byId(b)];
    for (const id of ids) {
      expect([ofA.get(id), ofB.get(id)].filter((o) => o === "signed")).toHaveLength(1);
      expect([ofA.get(id), ofB.get(id)]).toContain("skipped");
      expect(await signedHistory(id)).toBe(1);
      expect(await sendTasks(id)).toBe(1);
      expect(await prescription(id)).toMatchObject({ status: "signed", signingClaimId: null });
    }
    // Each batch that signed any asked the trust service once; together they asked for six signatures.
    const asked = standIn.calls("credentials/authorize").slice(before[0]).map((c) => (c.body as { numSignatures: number }).numSignatures);
    expect(asked.reduce((sum, n) => sum + n, 0)).toBe(6);
    expect(asked.length).toBeLessThanOrEqual(2);
  });

  it("skips one signed through the request page meanwhile; a single signature leaves one claimed by a live batch alone", async () => {
    const ids = await approved(3, roth, rothActor);
    await signPrescription(org(), ids[0], { actor: rothActor, doctorId: roth.id, authorisation: { pin: "4711" } });
    // Another tab's batch holds ids[1] (its lease running); one whose lease ran out is free.
    await t.db.prescription.update({ where: { id: ids[1] }, data: { signingClaimId: "other-tab", signingClaimedUntil: new Date(Date.now() + 60_000) } });
    await t.db.prescription.update({ where: { id: ids[2] }, data: { signingClaimId: "crashed-tab", signingClaimedUntil: new Date(Date.now() - 1_000) } });
    const single = signPrescription(org(), ids[1], { actor: rothActor, doctorId: roth.id, authorisation: { pin: "4711" } });
    await expect(single).rejects.toBeInstanceOf(ConflictError);
    await expect(signPrescription(org(), ids[1], { actor: rothActor, doctorId: roth.id, authorisation: { pin: "4711" } })).rejects.toThrow(/being signed in a Sign centre batch/);

    const result = await signApprovedPrescriptions(org(), { id: roth.id, actor: rothActor }, ids, { pin: "4711" });
    expect(result.outcomes).toEqual([
      { id: ids[0], outcome: "skipped", reason: expect.objectContaining({ key: "prescriptions.batch.notApproved" }) },
      { id: ids[1], outcome: "skipped", reason: expect.objectContaining({ key: "prescriptions.beingSigned" }) },
      { id: ids[2], outcome: "signed", status: "signed" },
    ]);
    expect(await signedHistory(ids[0])).toBe(1);
    expect(await prescription(ids[1])).toMatchObject({ status: "approved", signingClaimId: "other-tab" });
  });

  it("skips, when it is stored, one that stopped being approved after it was claimed; the others are signed", async () => {
    const ids = await approved(3, roth, rothActor);
    const result = await signApprovedPrescriptions(org(), { id: roth.id, actor: rothActor }, ids, { pin: "4711" }, {
      // Between signing and storing: another tab declines one (a decline does not sign, so a claim does not stop it).
      onPhase: async (phase) => {
        if (phase === "storing") await declinePrescription(org(), ids[1], { actor: rothActor, doctorId: roth.id, note: "contraindicated" });
      },
    });
    expect(result.outcomes.map((o) => [o.id, o.outcome])).toEqual([
      [ids[0], "signed"],
      [ids[1], "skipped"],
      [ids[2], "signed"],
    ]);
    expect(await prescription(ids[1])).toMatchObject({ status: "declined", signedFileKey: null, signingClaimId: null });
    expect(await prescriptionStorage().exists(signedKey(ids[1]))).toBe(false);
    expect(await sendTasks(ids[1])).toBe(0);
  });

  it("skips another doctor's prescriptions and refuses an empty batch", async () => {
    const [theirs] = await approved(1, weber, weberActor);
    const result = await signApprovedPrescriptions(org(), { id: roth.id, actor: rothActor }, [theirs, "no-such-prescription"], { pin: "4711" });
    expect(outcomesOf(result.outcomes)).toEqual(["skipped", "skipped"]);
    expect(await prescription(theirs)).toMatchObject({ status: "approved", signingClaimId: null });
    await expect(signApprovedPrescriptions(org(), { id: roth.id, actor: rothActor }, [], { pin: "4711" })).rejects.toThrow(/Validation failed/);
  });
});

describe("the Sign centre's door (doctor.requests.approve, doctor.signCentre)", () => {
  it("approve leaves a request approved; the list and counter show the doctor's approved ones, an incomplete one with what it lacks; a batch signs the chosen", async () => {
    const { prescriptionId: first } = await placeWaitingOrder(t, refs);
    const { prescriptionId: second } = await placeWaitingOrder(t, refs, { readyToSign: false });
    const centre = as(weberUser).doctor.signCentre;
    const before = (await centre.count()).count;
    expect(await as(weberUser).doctor.requests.approve({ prescriptionUid: first })).toEqual({ uid: first, status: "approved", changed: true });
    await as(weberUser).doctor.requests.approve({ prescriptionUid: second });
    expect(await prescription(first)).toMatchObject({ status: "approved", doctorId: weber.id, signedFileKey: null });
    expect((await centre.count()).count).toBe(before + 2);
    expect((await as(rothUser).doctor.signCentre.list()).items.map((i) => i.uid)).not.toContain(first);

    const list = await centre.list();
    const shown = new Map(list.items.map((i) => [i.uid, i]));
    expect(shown.get(first)).toMatchObject({ missing: [], beingSigned: false, patient: { dateOfBirth: expect.any(String) }, items: [{ dosage: "1 tablet daily", quantity: 2 }] });
    expect(shown.get(second)!.missing.length).toBeGreaterThan(0);

    const batchUid = crypto.randomUUID();
    const signed = await centre.sign({ prescriptionUids: [first, second], batchUid, otp: standIn.issueOtp(weberCredential) });
    expect(signed).toEqual({
      batchUid,
      outcomes: [
        { uid: first, outcome: "signed", status: "signed", reason: null },
        { uid: second, outcome: "incomplete", status: null, reason: expect.stringMatching(/^Cannot sign/) },
      ],
    });
    expect(await centre.progress({ batchUid })).toMatchObject({ phase: "done", total: 2, stored: 1 });
    expect(await as(rothUser).doctor.signCentre.progress({ batchUid })).toBeNull();
    expect((await centre.count()).count).toBe(before + 1);
    // Nothing chosen, or no factor where the credential needs one: a field error, nothing claimed.
    await expect(centre.sign({ prescriptionUids: [], batchUid: crypto.randomUUID() })).rejects.toThrow(/Choose at least one prescription/);
    const [third] = await approved(1, weber, weberActor);
    await expect(centre.sign({ prescriptionUids: [third], batchUid: crypto.randomUUID() })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await prescription(third)).toMatchObject({ status: "approved", signingClaimId: null });
  });

  it("dosage instructions cannot change while a live batch claims the prescription", async () => {
    const [id] = await approved(1, weber, weberActor);
    const line = await t.db.prescriptionLine.findFirstOrThrow({ where: { prescriptionId: id } });
    await t.db.prescription.update({ where: { id }, data: { signingClaimId: "other-tab", signingClaimedUntil: new Date(Date.now() + 60_000) } });
    await expect(as(weberUser).doctor.requests.setDosage({ prescriptionUid: id, lines: [{ lineUid: line.id, dosage: "3 tablets" }] })).rejects.toThrow(/its dosage instructions cannot change meanwhile/);
    expect((await t.db.prescriptionLine.findUniqueOrThrow({ where: { id: line.id } })).dosage).toBe(line.dosage);
  });
});

describe("a sandbox organisation's batch", () => {
  it("signs each with the doctor's sandbox certificate, no one-time password asked, and asks no trust service", async () => {
    const sandbox = await createTenant();
    await sandbox.db.organisation.update({ where: { id: sandbox.organisation.id }, data: { sandbox: true } });
    const sandboxRefs = await withShopSkus(sandbox);
    const doctor = await sandbox.db.doctor.create({ data: { ...PRESCRIBER, organisationId: sandbox.organisation.id, displayName: "Dr. Lena Sand" } });
    const actor: Actor = { type: "SYSTEM" };
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { prescriptionId } = await placeWaitingOrder(sandbox, sandboxRefs);
      await approvePrescription(sandbox.organisation.id, prescriptionId, { actor, doctorId: doctor.id });
      ids.push(prescriptionId);
    }
    const before = calls();
    const result = await signApprovedPrescriptions(sandbox.organisation.id, { id: doctor.id, actor }, ids, undefined);
    expect(outcomesOf(result.outcomes)).toEqual(["signed", "signed"]);
    expect(calls()).toEqual(before);
    for (const id of ids) {
      const p = await sandbox.db.prescription.findUniqueOrThrow({ where: { id } });
      const pdf = await readVerified(p.signedFileKey!, p.signedFileSha256!);
      expect(pdf.toString("latin1")).toContain("/adbe.pkcs7.detached");
      expect(pdfText(pdf)).toContain("Qualifiziert elektronisch signiert von Dr. Lena Sand am");
    }
  });
});
