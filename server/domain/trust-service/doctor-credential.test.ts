/**
 * Linking a doctor's credential (doctor-credential.ts over credential-rules.ts) against the stand-in
 * trust service, on a real database: the name rule (Unicode, case, white space, the certificate's
 * title, given name and surname), and each refusal with its reason — another person's certificate,
 * one not valid now, one without QcCompliance, a disabled key, authorisation by redirect; every
 * reason given at once; no trust service; replacing and unlinking, audited.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/server/domain/actor";
import { NotFoundError, UnprocessableError } from "@/server/domain/errors";
import { startCscStandIn, type CscStandIn } from "@/tests/csc-stand-in";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { useEnv } from "@/tests/wait";
import { saveTrustServiceConnection } from "./connection";
import { certificateNamesDoctor, normalisedName } from "./credential-rules";
import { doctorSigningStatus, linkDoctorCredential, unlinkDoctorCredential } from "./doctor-credential";

useEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });

let standIn: CscStandIn;
let t: Tenant;
let other: Tenant;
let doctor: { id: string; displayName: string };
const actor: Actor = { type: "SYSTEM" };
const refusalOf = (credentialId: string) => linkDoctorCredential(t.organisation.id, doctor, actor, credentialId).then(() => expect.unreachable("linked"), (e: unknown) => e);

beforeAll(async () => {
  standIn = await startCscStandIn();
  t = await createTenant();
  other = await createTenant();
  doctor = await t.db.doctor.create({ data: { organisationId: t.organisation.id, displayName: "Dr. med. Jürgen Groß" } });
  await saveTrustServiceConnection(t.organisation.id, actor, { displayName: "Stand-in", baseUrl: standIn.baseUrl, clientId: standIn.clientId, clientSecret: standIn.clientSecret });
});
afterAll(() => standIn.close());

describe("the name rule", () => {
  it("compares after NFKC, lower case and one space for any white space; the certificate's title, given name and surname count", () => {
    expect(normalisedName("  Dr.\u00a0med.\tJÜRGEN   Groß ")).toBe("dr. med. jürgen groß");
    // Full-width letters and a decomposed ü are the same name after NFKC.
    expect(normalisedName("Ｊu\u0308rgen")).toBe("jürgen");
    const facts = { commonName: "Jürgen Groß", givenName: "Jürgen", surname: "Groß", title: "Dr. med." };
    expect(certificateNamesDoctor(facts, "Dr. med. Jürgen Groß")).toBe(true);
    expect(certificateNamesDoctor(facts, "jürgen groß")).toBe(true);
    expect(certificateNamesDoctor({ ...facts, title: null }, "Dr. med. Jürgen Groß")).toBe(false);
    expect(certificateNamesDoctor({ commonName: "Jürgen Gross", givenName: null, surname: null, title: null }, "Jürgen Groß")).toBe(false);
  });
});

describe("linking", () => {
  it("links a credential whose certificate names the doctor by title, given name and surname", async () => {
    const id = await standIn.addCredential({ userId: "gross", commonName: "Juergen Gross", person: { title: "Dr. med.", givenName: "Jürgen", surname: "Groß" } });
    expect(await linkDoctorCredential(t.organisation.id, doctor, actor, id)).toMatchObject({ subjectName: "Juergen Gross", authFactors: ["OTP"] });
    expect((await doctorSigningStatus(t.organisation.id, doctor.id)).credential?.subjectName).toBe("Juergen Gross");
  });

  it("refuses each credential that is not the doctor's qualified, valid, usable one, with its reason", async () => {
    const name = { commonName: "Jürgen Groß", person: { title: "Dr. med." } };
    const cases: [string, Promise<string>][] = [
      [/not of Dr\. med\. Jürgen Groß/.source, standIn.addCredential({ userId: "x", commonName: "Erika Muster" })],
      [/^The certificate is not valid now \(valid from/.source, standIn.addCredential({ userId: "x", ...name, notBefore: new Date("2020-01-01"), notAfter: new Date("2021-01-01") })],
      [/^The certificate is not an EU qualified certificate/.source, standIn.addCredential({ userId: "x", ...name, qualified: false })],
      [/^The trust service reports the credential's key as disabled/.source, standIn.addCredential({ userId: "x", ...name, keyStatus: "disabled" })],
      [/^The credential is authorised by oauth2code/.source, standIn.addCredential({ userId: "x", ...name, authMode: "oauth2code" })],
    ];
    for (const [message, credential] of cases) {
      const error = await refusalOf(await credential);
      expect(error).toBeInstanceOf(UnprocessableError);
      expect((error as Error).message).toMatch(new RegExp(message));
    }
    // Every reason at once, under the field.
    const many = (await refusalOf(await standIn.addCredential({ userId: "x", commonName: "Erika Muster", qualified: false, keyStatus: "disabled" }))) as UnprocessableError;
    expect((many.fields as { credentialId: string[] }).credentialId).toHaveLength(3);
    // The doctor's linked credential is still the one linked before.
    expect((await doctorSigningStatus(t.organisation.id, doctor.id)).credential?.subjectName).toBe("Juergen Gross");
  });

  it("an unknown credential, an empty ID, no trust service, another organisation's doctor: refused, nothing linked", async () => {
    expect(((await refusalOf("cred-nope")) as Error).message).toBe("The trust service refused the request: Invalid parameter credentialID");
    expect(((await refusalOf("  ")) as Error).constructor.name).toBe("ValidationError");
    const theirs = await other.db.doctor.create({ data: { organisationId: other.organisation.id, displayName: "Dr. Fremd" } });
    await expect(linkDoctorCredential(t.organisation.id, theirs, actor, "cred-1")).rejects.toBeInstanceOf(NotFoundError);
    await expect(linkDoctorCredential(other.organisation.id, theirs, actor, "cred-1")).rejects.toThrow(/^This organisation has no trust service yet/);
    expect(await other.db.doctorSigningCredential.count({ where: { organisationId: other.organisation.id } })).toBe(0);
  });

  it("replacing and unlinking are audited, without the credential ID", async () => {
    const id = await standIn.addCredential({ userId: "gross", commonName: "Jürgen Groß", person: { title: "Dr. med." } });
    await linkDoctorCredential(t.organisation.id, doctor, actor, id);
    await unlinkDoctorCredential(t.organisation.id, doctor, actor);
    expect((await doctorSigningStatus(t.organisation.id, doctor.id)).credential).toBeNull();
    const audit = await t.db.auditEvent.findMany({ where: { organisationId: t.organisation.id, entityType: "signing_credential" }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["linked", "replaced", "unlinked"]);
    expect(JSON.stringify(audit)).not.toContain(id);
  });
});
