/**
 * Signing outside the sandbox, end to end over tRPC on a real database, against the stand-in trust
 * service (tests/csc-stand-in.ts): an admin connects the organisation's trust service (secret
 * sealed, shown masked, audited without it); each doctor links their own credential (another
 * person's is refused); a request is signed with the doctor's one-time password (or PIN) and the
 * signed PDF validates with order intake's own validator and with poppler's pdfsig, naming the
 * doctor; a wrong password, a missing one, a service that is down sign nothing; batches take one
 * authorisation.
 */
import type { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { database } from "@/server/db/client";
import type { ValidationError } from "@/server/domain/errors";
import { qesSignerFor } from "@/server/domain/prescriptions/signer";
import { trustAnchorsFor } from "@/server/domain/prescriptions/trust-anchors";
import { samplePrescriptionPdf } from "@/server/pki/sample-pdf";
import { validateQesPdf } from "@/server/pki/validate-qes-pdf";
import { prescriptionStorage, readVerified, signedKey } from "@/server/storage/prescription-files";
import { startCscStandIn, type CscStandIn } from "@/tests/csc-stand-in";
import { createTenant, PRESCRIBER, type Tenant } from "@/tests/fixtures";
import { withShopSkus } from "@/tests/orders";
import { pdfsig } from "@/tests/pdfsig";
import { placeWaitingOrder } from "@/tests/prescription-orders";
import { trpcCode } from "@/tests/trpc";
import { useEnv } from "@/tests/wait";
import { createPortalUser } from "@/tests/webhook-logs";
import { createCaller } from "./router";

let standIn: CscStandIn;
// The stand-in's CA is a trusted QES anchor here (as a real trust service's CA is in production).
useEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });

let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let weber: { id: string; displayName: string };
let roth: { id: string; displayName: string };
let weberUser: PortalSessionUser;
let rothUser: PortalSessionUser;
let admin: PortalSessionUser;
let weberCredential: string;
let rothCredential: string;
const as = (user: PortalSessionUser) => createCaller({ user, locale: "en" });
/** The tRPC error a call is refused with (the test fails if it succeeds). */
const failure = (call: Promise<unknown>) =>
  call.then(
    () => expect.unreachable("expected a refusal"),
    (e: unknown) => e as TRPCError & { cause: ValidationError },
  );
const prescription = (id: string) => t.db.prescription.findUniqueOrThrow({ where: { id } });
const history = (prescriptionId: string) => t.db.prescriptionHistory.findMany({ where: { prescriptionId } });

beforeAll(async () => {
  standIn = await startCscStandIn({ name: "Stand-in QTSP" });
  process.env.QES_TRUST_ANCHORS = standIn.caPem;
  const { reloadConfig } = await import("@/server/config");
  reloadConfig();
  t = await createTenant();
  refs = await withShopSkus(t);
  weber = await t.db.doctor.create({ data: { ...PRESCRIBER, organisationId: t.organisation.id, displayName: "Dr. Anna Weber" } });
  roth = await t.db.doctor.create({ data: { ...PRESCRIBER, organisationId: t.organisation.id, displayName: "Dr. Jonas Roth" } });
  weberUser = await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id, doctorId: weber.id });
  rothUser = await createPortalUser(t.db, { role: "DOCTOR", organisationId: t.organisation.id, doctorId: roth.id });
  admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
  weberCredential = await standIn.addCredential({ userId: "weber", commonName: "Dr. Anna Weber" });
  // Roth's certificate names him as a natural person's certificate does: title apart from the name.
  rothCredential = await standIn.addCredential({ userId: "roth", commonName: "Jonas Roth", person: { title: "Dr.", givenName: "Jonas", surname: "Roth" }, factor: "PIN", pin: "4711" });
});
afterAll(async () => {
  delete process.env.QES_TRUST_ANCHORS;
  (await import("@/server/config")).reloadConfig();
  await standIn.close();
});

describe("the organisation's trust service (admin.trustService)", () => {
  it("before it is connected, signing outside the sandbox is refused with a 422 that says what to do, and nothing is written", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    const call = as(weberUser).doctor.requests.sign({ prescriptionUid: prescriptionId, otp: "123456" });
    await expect(call).rejects.toThrow(/^This organisation has no qualified trust service: an admin connects one in Settings → Trust service/);
    expect(await trpcCode(as(weberUser).doctor.requests.sign({ prescriptionUid: prescriptionId }))).toBe("UNPROCESSABLE_CONTENT");
    expect(await prescription(prescriptionId)).toMatchObject({ status: "waiting for doctor", signedFileKey: null, doctorId: null });
    expect(await history(prescriptionId)).toHaveLength(1);
    expect(await as(admin).admin.trustService.testConnection()).toEqual({ ok: false, message: "No trust service is connected." });
  });

  it("an admin connects it: each missing field named, the secret sealed, shown by a hint, audited without it; Test connection gets a token; admins only", async () => {
    const trustService = as(admin).admin.trustService;
    const refused = (await failure(trustService.save({ displayName: "", baseUrl: "", clientId: "", clientSecret: "" }))).cause;
    expect(Object.keys(refused.fields).sort()).toEqual(["baseUrl", "clientId", "displayName"]);
    const noSecret = (await failure(trustService.save({ displayName: "Stand-in QTSP", baseUrl: standIn.baseUrl, clientId: standIn.clientId }))).cause;
    expect(noSecret.fields).toEqual({ clientSecret: ["Enter the client secret."] });

    const saved = await trustService.save({ displayName: "Stand-in QTSP", baseUrl: standIn.baseUrl, clientId: standIn.clientId, clientSecret: standIn.clientSecret });
    expect(saved).toMatchObject({ displayName: "Stand-in QTSP", baseUrl: standIn.baseUrl, tokenUrl: null, clientSecretHint: `…${standIn.clientSecret.slice(-4)}` });
    expect(JSON.stringify(await trustService.settings())).not.toContain(standIn.clientSecret);
    const row = await t.db.trustServiceConnection.findUniqueOrThrow({ where: { organisationId: t.organisation.id } });
    expect(row.sealedClientSecret).not.toContain(standIn.clientSecret);
    const audit = await t.db.auditEvent.findMany({ where: { organisationId: t.organisation.id, entityType: "setting" } });
    expect(audit.map((a) => a.summary)).toContain(`Trust service "Stand-in QTSP" connected: client secret …${standIn.clientSecret.slice(-4)}`);
    expect(JSON.stringify(audit)).not.toContain(standIn.clientSecret);

    expect(await trustService.testConnection()).toEqual({ ok: true, message: "The trust service issued an access token (valid for 60 min)." });
    // Saving without a secret keeps the stored one.
    await trustService.save({ displayName: "Stand-in QTSP", baseUrl: standIn.baseUrl, clientId: standIn.clientId });
    expect(await trustService.testConnection()).toMatchObject({ ok: true });

    expect(await trpcCode(as(weberUser).admin.trustService.settings())).toBe("FORBIDDEN");
  });
});

describe("linking a doctor's own credential (doctor.signing)", () => {
  it("without a linked credential the doctor cannot sign: a 422 naming what to do", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    await expect(as(weberUser).doctor.requests.sign({ prescriptionUid: prescriptionId, otp: "123456" })).rejects.toThrow(
      /^Dr\. Anna Weber has not linked a signing credential: link your own under My signature/,
    );
    expect(await prescription(prescriptionId)).toMatchObject({ status: "waiting for doctor", signedFileKey: null });
    expect(await as(weberUser).doctor.signing.status()).toEqual({ sandbox: false, trustService: { name: "Stand-in QTSP" }, credential: null });
  });

  it("finds the doctor's credentials by their user id there; a credential in another person's name is refused", async () => {
    const own = await as(weberUser).doctor.signing.findCredentials({ userId: "weber" });
    expect(own).toEqual([{ credentialId: weberCredential, description: expect.any(String), subjectName: "Dr. Anna Weber", issuerName: "Stand-in QTSP", validTo: expect.any(Number), problems: [] }]);
    const others = await as(weberUser).doctor.signing.findCredentials({ userId: "roth" });
    expect(others[0].problems).toEqual(["The certificate is in the name of Jonas Roth, not of Dr. Anna Weber: only your own credential can sign your prescriptions."]);

    await expect(as(weberUser).doctor.signing.link({ credentialId: rothCredential })).rejects.toThrow(/^The certificate is in the name of Jonas Roth, not of Dr\. Anna Weber/);
    expect(await t.db.doctorSigningCredential.count({ where: { doctorId: weber.id } })).toBe(0);
  });

  it("links it: the certificate is shown, the credential ID sealed and audited without it", async () => {
    const status = await as(weberUser).doctor.signing.link({ credentialId: weberCredential });
    expect(status.credential).toMatchObject({ subjectName: "Dr. Anna Weber", issuerName: "Stand-in QTSP", authFactors: ["OTP"] });
    const row = await t.db.doctorSigningCredential.findUniqueOrThrow({ where: { doctorId: weber.id } });
    expect(row.sealedCredentialId).not.toContain(weberCredential);
    expect(row.certificateChainPem.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    const audit = await t.db.auditEvent.findFirstOrThrow({ where: { organisationId: t.organisation.id, entityType: "signing_credential", entityId: weber.id } });
    expect(audit).toMatchObject({ action: "linked", actorUserId: weberUser.id });
    expect(JSON.stringify(audit)).not.toContain(weberCredential);

    // A certificate naming him by title, given name and surname is Dr. Jonas Roth's.
    expect((await as(rothUser).doctor.signing.link({ credentialId: rothCredential })).credential).toMatchObject({ subjectName: "Jonas Roth", authFactors: ["PIN"] });
  });
});

describe("signing with the linked credential", () => {
  it("signs with the doctor's one-time password: one authorisation, one signHash; order intake's validator and pdfsig accept it, naming the doctor", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    const authorizations = standIn.calls("credentials/authorize").length;
    const signHashes = standIn.calls("signatures/signHash").length;
    const otp = standIn.issueOtp(weberCredential);
    expect(await as(weberUser).doctor.requests.sign({ prescriptionUid: prescriptionId, otp })).toEqual({ uid: prescriptionId, status: "signed", changed: true });
    expect(standIn.calls("credentials/authorize").length - authorizations).toBe(1);
    expect(standIn.calls("signatures/signHash").length - signHashes).toBe(1);
    expect(standIn.calls("credentials/authorize").at(-1)?.body).toMatchObject({ numSignatures: 1, authData: [{ id: "OTP", value: otp }] });

    const signed = await prescription(prescriptionId);
    expect(signed).toMatchObject({ status: "signed", doctorId: weber.id });
    const pdf = await readVerified(signed.signedFileKey!, signed.signedFileSha256!);
    const verdict = await validateQesPdf(pdf, { trustAnchors: await trustAnchorsFor({ sandbox: false }) });
    expect(verdict).toMatchObject({ valid: true, signer: { commonName: "Dr. Anna Weber" } });
    expect(verdict.valid && verdict.signer.issuer).toContain("O=Stand-in QTSP");
    const poppler = pdfsig(pdf, standIn.caPem);
    expect(poppler, poppler.output).toMatchObject({ signerCommonName: "Dr. Anna Weber", signatureValid: true, certificateTrusted: true });
    // The one-time password is nowhere in what was stored.
    const stored = JSON.stringify([await history(prescriptionId), signed, await t.db.auditEvent.findMany({ where: { organisationId: t.organisation.id } })]);
    expect(stored).not.toContain(otp);
  });

  it("a wrong one-time password signs nothing: no status change, no stored file; a missing one is a field error; a new one signs", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    const otp = standIn.issueOtp(weberCredential);
    const wrong = otp === "000000" ? "999999" : "000000";
    await expect(as(weberUser).doctor.requests.sign({ prescriptionUid: prescriptionId, otp: wrong })).rejects.toThrow(/^The trust service refused the one-time password/);
    // The attempt used the password up, as the service's one-time passwords are.
    expect(await trpcCode(as(weberUser).doctor.requests.sign({ prescriptionUid: prescriptionId, otp }))).toBe("UNPROCESSABLE_CONTENT");
    const missing = await failure(as(weberUser).doctor.requests.sign({ prescriptionUid: prescriptionId }));
    expect(missing.code).toBe("BAD_REQUEST");
    expect(missing.cause.fields).toEqual({ otp: ["Enter the one-time password for this signature."] });
    expect(await prescription(prescriptionId)).toMatchObject({ status: "waiting for doctor", signedFileKey: null, doctorId: null, renderedFileKey: null });
    expect(await history(prescriptionId)).toHaveLength(1);
    expect(await prescriptionStorage().exists(signedKey(prescriptionId))).toBe(false);

    expect((await as(weberUser).doctor.requests.sign({ prescriptionUid: prescriptionId, otp: standIn.issueOtp(weberCredential) })).status).toBe("signed");
  });

  it("a doctor whose credential asks for a PIN signs with it; a wrong PIN signs nothing", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    await expect(as(rothUser).doctor.requests.sign({ prescriptionUid: prescriptionId, pin: "0000" })).rejects.toThrow(/^The trust service refused the PIN/);
    expect(await prescription(prescriptionId)).toMatchObject({ status: "waiting for doctor", signedFileKey: null });
    expect((await as(rothUser).doctor.requests.sign({ prescriptionUid: prescriptionId, pin: "4711" })).status).toBe("signed");
    const signed = await prescription(prescriptionId);
    const pdf = await readVerified(signed.signedFileKey!, signed.signedFileSha256!);
    expect(await validateQesPdf(pdf, { trustAnchors: [standIn.caPem] })).toMatchObject({ valid: true, signer: { commonName: "Jonas Roth" } });
  });

  it("a trust service that is down is a 503 with a message, and nothing is written", async () => {
    const { prescriptionId } = await placeWaitingOrder(t, refs);
    const otp = standIn.issueOtp(weberCredential);
    standIn.misbehave(503);
    const error = await failure(as(weberUser).doctor.requests.sign({ prescriptionUid: prescriptionId, otp }));
    expect(error.code).toBe("SERVICE_UNAVAILABLE");
    expect(error.message).toMatch(/^The trust service is not available: .*Nothing was signed/);
    expect(await prescription(prescriptionId)).toMatchObject({ status: "waiting for doctor", signedFileKey: null });
    expect(await prescriptionStorage().exists(signedKey(prescriptionId))).toBe(false);
  });

  it("signs a batch with one authorisation and one signHash; the signer's identity is known before signing", async () => {
    const db = await database();
    const signer = await qesSignerFor(db, { id: t.organisation.id, sandbox: false }, weber, { otp: standIn.issueOtp(weberCredential) });
    expect(signer.identity).toEqual({ subject: "Dr. Anna Weber", issuer: "Stand-in QTSP" });
    const before = [standIn.calls("credentials/authorize").length, standIn.calls("signatures/signHash").length];
    const pdfs = await Promise.all(["A", "B", "C"].map((patient) => samplePrescriptionPdf({ patient })));
    const signed = await signer.signAll(pdfs, { signingTime: new Date(), reason: "Prescriptions" });
    expect([standIn.calls("credentials/authorize").length - before[0], standIn.calls("signatures/signHash").length - before[1]]).toEqual([1, 1]);
    expect(standIn.calls("credentials/authorize").at(-1)?.body).toMatchObject({ numSignatures: 3 });
    for (const pdf of signed) expect(await validateQesPdf(pdf, { trustAnchors: [standIn.caPem] })).toMatchObject({ valid: true, signer: { commonName: "Dr. Anna Weber" } });

    // The sandbox: the doctor's own sandbox certificate, no authorisation.
    const sandbox = await qesSignerFor(db, { id: t.organisation.id, sandbox: true }, weber);
    expect(sandbox.identity).toEqual({ subject: "Dr. Anna Weber", issuer: "Rx Sandbox (not a trust service provider)" });
  });

  it("removing the trust service unlinks every doctor's credential, audited", async () => {
    await as(admin).admin.trustService.remove();
    expect(await t.db.doctorSigningCredential.count({ where: { organisationId: t.organisation.id } })).toBe(0);
    expect((await as(admin).admin.trustService.settings()).connection).toBeNull();
    const audit = await t.db.auditEvent.findFirstOrThrow({ where: { organisationId: t.organisation.id, entityType: "setting", action: "removed" } });
    expect(audit.summary).toBe("Trust service removed; 2 doctor credential(s) unlinked");
  });
});
