/**
 * The one CMS builder (pades.ts) as validators see its output: the four signed attributes
 * (contentType, signingTime, messageDigest, signingCertificateV2 over the signer's certificate), in
 * DER order, the chain included, a value made outside (here a local key over the prepared
 * attributes, as a trust service's signHash makes it over their hash) — accepted by order intake's
 * validator and by poppler's pdfsig; a changed byte, a wrong value or one too large refused. RSA
 * and ECDSA (DER or r‖s).
 */
import { createHash, sign, webcrypto } from "node:crypto";
import * as asn1 from "asn1js";
import * as pkijs from "pkijs";
import { beforeAll, describe, expect, it } from "vitest";
import { pdfsig } from "@/tests/pdfsig";
import { createRootCa, issueSignerCertificate, type IssuedCertificate } from "./certificates";
import { OID_QC_COMPLIANCE, OID_QC_STATEMENTS } from "./oids";
import { preparePadesSignature } from "./pades";
import { pemCertificateBlocks } from "./pem";
import { samplePrescriptionPdf } from "./sample-pdf";
import { validateQesPdf } from "./validate-qes-pdf";

let ca: IssuedCertificate;
let signer: IssuedCertificate;
let unsigned: Buffer;
// After the certificates' notBefore (a minute before they are made): validity is judged at the signing time.
let signingTime: Date;
const der = (pem: string) => pemCertificateBlocks(pem)[0];

beforeAll(async () => {
  ca = await createRootCa({ commonName: "PAdES Test CA", organisation: "PAdES Test QTSP" });
  signer = await issueSignerCertificate({ commonName: "Dr. Anna Weber", issuer: ca });
  unsigned = await samplePrescriptionPdf({ patient: "Erika Mustermann" });
  signingTime = new Date();
});

function signedAttributesOf(pdf: Buffer): pkijs.Attribute[] {
  const hex = /\/Contents\s*<([0-9a-fA-F]+)>/.exec(pdf.toString("latin1"))![1];
  const cms = pkijs.ContentInfo.fromBER(Buffer.from(hex, "hex"));
  return new pkijs.SignedData({ schema: cms.content }).signerInfos[0].signedAttrs!.attributes;
}

describe("an RSA signature made outside", () => {
  it("carries contentType, signingTime, messageDigest and signingCertificateV2 in DER order; both validators accept it", async () => {
    const request = await preparePadesSignature(unsigned, { certificates: [der(signer.certificatePem), der(ca.certificatePem)], keyAlgorithm: "rsa" }, { signingTime, reason: "Prescription", name: "Dr. Anna Weber" });
    expect(request.digest).toEqual(createHash("sha256").update(request.signedAttributes).digest());
    const pdf = request.embed(sign("sha256", request.signedAttributes, signer.privateKeyPem));

    const attributes = signedAttributesOf(pdf);
    expect(attributes.map((a) => a.type).sort()).toEqual(["1.2.840.113549.1.9.16.2.47", "1.2.840.113549.1.9.3", "1.2.840.113549.1.9.4", "1.2.840.113549.1.9.5"]);
    const encodings = attributes.map((a) => Buffer.from(a.toSchema().toBER(false)).toString("hex"));
    expect(encodings).toEqual([...encodings].sort());
    // signingCertificateV2 → certs[0] → certHash: the SHA-256 of the signer's certificate (hashAlgorithm left out: its default).
    const essCertIdV2 = (attributes.find((a) => a.type === "1.2.840.113549.1.9.16.2.47")!.values[0] as asn1.Sequence).valueBlock.value[0] as asn1.Sequence;
    const certHash = ((essCertIdV2.valueBlock.value[0] as asn1.Sequence).valueBlock.value[0] as asn1.OctetString).valueBlock.valueHexView;
    expect(Buffer.from(certHash)).toEqual(createHash("sha256").update(der(signer.certificatePem)).digest());

    expect(await validateQesPdf(pdf, { trustAnchors: [ca.certificatePem] })).toMatchObject({ valid: true, signer: { commonName: "Dr. Anna Weber" } });
    expect(pdfsig(pdf, ca.certificatePem)).toMatchObject({ signerCommonName: "Dr. Anna Weber", signatureValid: true, certificateTrusted: true });
  });

  it("a changed byte or a value of another key is refused by both", async () => {
    const request = await preparePadesSignature(unsigned, { certificates: [der(signer.certificatePem), der(ca.certificatePem)], keyAlgorithm: "rsa" }, { signingTime, reason: "Prescription" });
    const pdf = request.embed(sign("sha256", request.signedAttributes, signer.privateKeyPem));
    const changed = Buffer.from(pdf);
    // The signature dictionary's /Reason is inside the signed bytes.
    const at = changed.indexOf("(Prescription)");
    expect(at).toBeGreaterThan(0);
    changed[at + 1] = "p".charCodeAt(0);
    expect(await validateQesPdf(changed, { trustAnchors: [ca.certificatePem] })).toMatchObject({ valid: false, code: "digest_mismatch" });
    expect(pdfsig(changed, ca.certificatePem).signatureValid).toBe(false);

    const stranger = await issueSignerCertificate({ commonName: "Someone Else", issuer: ca });
    const forged = request.embed(sign("sha256", request.signedAttributes, stranger.privateKeyPem));
    expect(await validateQesPdf(forged, { trustAnchors: [ca.certificatePem] })).toMatchObject({ valid: false, code: "bad_signature" });
    expect(pdfsig(forged, ca.certificatePem).signatureValid).toBe(false);
  });

  it("a CMS larger than the reserved space is refused, not cut", async () => {
    const request = await preparePadesSignature(unsigned, { certificates: [der(signer.certificatePem)], keyAlgorithm: "rsa" }, { signingTime, reason: "Prescription", signatureLength: 512 });
    expect(() => request.embed(sign("sha256", request.signedAttributes, signer.privateKeyPem))).toThrow(/does not fit the space reserved for it/);
  });
});

/** A qualified ECDSA P-256 certificate issued by the RSA test CA (pkijs with WebCrypto: node-forge knows no EC keys). */
async function ecdsaSigner(): Promise<{ certificate: Buffer; key: CryptoKey }> {
  const crypto = webcrypto as unknown as Crypto;
  const keys = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  const caKey = await crypto.subtle.importKey(
    "pkcs8",
    Uint8Array.from(Buffer.from(ca.privateKeyPem.replace(/-----[^-]+-----|\s/g, ""), "base64")),
    { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const issuer = pkijs.Certificate.fromBER(der(ca.certificatePem));
  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  certificate.serialNumber = new asn1.Integer({ value: 4711 });
  certificate.issuer = issuer.subject;
  certificate.subject.typesAndValues.push(new pkijs.AttributeTypeAndValue({ type: "2.5.4.3", value: new asn1.Utf8String({ value: "Dr. Eva Ecke" }) }));
  certificate.notBefore.value = new Date(Date.now() - 3600_000);
  certificate.notAfter.value = new Date(Date.now() + 365 * 24 * 3600_000);
  const qc = new pkijs.QCStatements();
  qc.values = [new pkijs.QCStatement({ id: OID_QC_COMPLIANCE })];
  certificate.extensions = [new pkijs.Extension({ extnID: OID_QC_STATEMENTS, critical: false, extnValue: qc.toSchema().toBER(false) })];
  await certificate.subjectPublicKeyInfo.importKey(keys.publicKey, new pkijs.CryptoEngine({ name: "node", crypto }));
  await certificate.sign(caKey, "SHA-256", new pkijs.CryptoEngine({ name: "node", crypto }));
  return { certificate: Buffer.from(certificate.toSchema().toBER(false)), key: keys.privateKey };
}

describe("an ECDSA signature made outside", () => {
  it("is embedded as DER whether the service answers DER or r‖s, and both validators accept it", async () => {
    const ec = await ecdsaSigner();
    const subtle = (webcrypto as unknown as Crypto).subtle;
    for (const form of ["raw", "der"] as const) {
      const request = await preparePadesSignature(unsigned, { certificates: [ec.certificate, der(ca.certificatePem)], keyAlgorithm: "ecdsa" }, { signingTime, reason: "Prescription" });
      // WebCrypto answers r‖s over SHA-256 of the attributes; the DER form as a CMS-minded service would.
      const raw = Buffer.from(await subtle.sign({ name: "ECDSA", hash: "SHA-256" }, ec.key, Uint8Array.from(request.signedAttributes)));
      const value = form === "raw" ? raw : derOf(raw);
      const pdf = request.embed(value);
      expect(await validateQesPdf(pdf, { trustAnchors: [ca.certificatePem] })).toMatchObject({ valid: true, signer: { commonName: "Dr. Eva Ecke" } });
      expect(pdfsig(pdf, ca.certificatePem)).toMatchObject({ signerCommonName: "Dr. Eva Ecke", signatureValid: true });
    }
  });
});

/** r‖s as DER, independently of pades.ts's own conversion. */
function derOf(raw: Buffer): Buffer {
  const int = (b: Buffer) => {
    let i = 0;
    while (i < b.length - 1 && b[i] === 0 && !(b[i + 1] & 0x80)) i++;
    const v = b.subarray(i);
    const body = v[0] & 0x80 ? Buffer.concat([Buffer.from([0]), v]) : v;
    return Buffer.concat([Buffer.from([0x02, body.length]), body]);
  };
  const seq = Buffer.concat([int(raw.subarray(0, 32)), int(raw.subarray(32))]);
  return Buffer.concat([Buffer.from([0x30, seq.length]), seq]);
}
