import { mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pdflibAddPlaceholder } from "@signpdf/placeholder-pdf-lib";
import * as asn1 from "asn1js";
import { PDFDocument } from "pdf-lib";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { reloadConfig } from "@/server/config";
import { createRootCa, issueSignerCertificate, toPkcs12, type IssuedCertificate } from "./certificates";
import { ensureSandboxQes, SANDBOX_SIGNER_NAME } from "./sandbox-ca";
import { samplePrescriptionPdf } from "./sample-pdf";
import { signPdfWithP12 } from "./sign-pdf";
import { configuredTrustAnchors, parseTrustAnchors, trustAnchorsFor } from "@/server/domain/prescriptions/trust-anchors";
import { validateQesPdf, type QesValidation } from "./validate-qes-pdf";

const YEAR = 365 * 24 * 3600_000;
const PASSWORD = "test-password";
const now = new Date();
/** UTCTime has whole seconds. */
const yesterday = new Date(now.getTime() - 24 * 3600_000);
const signingTime = new Date(Math.floor((now.getTime() - 3600_000) / 1000) * 1000);

let ca: IssuedCertificate;
let otherCa: IssuedCertificate;
const p12s: Record<"qualified" | "foreign" | "selfSigned" | "notQualified" | "expired", Buffer> = {} as never;
let unsigned: Buffer;
let signed: Buffer;

const sign = (pdf: Buffer, p12: Buffer, time = signingTime) => signPdfWithP12(pdf, p12, PASSWORD, { signingTime: time });
const validate = (pdf: Buffer, anchors = [ca.certificatePem]) => validateQesPdf(pdf, { trustAnchors: anchors, now });
const failure = (result: QesValidation) => (result.valid ? { code: "valid", message: "" } : result);

/** The signature's /ByteRange numbers and where their text starts in the file. */
function byteRangeOf(pdf: Buffer) {
  const at = pdf.lastIndexOf("/ByteRange [");
  const end = pdf.indexOf("]", at);
  const numbers = pdf.subarray(at + 12, end).toString("latin1").trim().split(/\s+/).map(Number);
  return { at, end, numbers };
}

beforeAll(async () => {
  // A CA valid since five years, so certificates of the past can be issued under it.
  ca = await createRootCa({ commonName: "Test Qualified Root CA", organisation: "Test TSP", notBefore: new Date(now.getTime() - 5 * YEAR), years: 20 });
  otherCa = await createRootCa({ commonName: "Unknown Root CA", notBefore: yesterday });
  const [qualified, foreign, selfSigned, notQualified, expired] = await Promise.all([
    issueSignerCertificate({ commonName: "Dr. Erika Test", organisation: "Praxis Test", issuer: ca, notBefore: yesterday }),
    issueSignerCertificate({ commonName: "Dr. Foreign", issuer: otherCa, notBefore: yesterday }),
    issueSignerCertificate({ commonName: "Dr. Self Signed", notBefore: yesterday }),
    issueSignerCertificate({ commonName: "Dr. Advanced Only", issuer: ca, qualified: false, notBefore: yesterday }),
    issueSignerCertificate({ commonName: "Dr. Expired", issuer: ca, notBefore: new Date(now.getTime() - 3 * YEAR), notAfter: new Date(now.getTime() - YEAR) }),
  ]);
  p12s.qualified = toPkcs12(qualified, [ca.certificatePem], PASSWORD);
  p12s.foreign = toPkcs12(foreign, [otherCa.certificatePem], PASSWORD);
  p12s.selfSigned = toPkcs12(selfSigned, [], PASSWORD);
  p12s.notQualified = toPkcs12(notQualified, [ca.certificatePem], PASSWORD);
  p12s.expired = toPkcs12(expired, [ca.certificatePem], PASSWORD);
  unsigned = await samplePrescriptionPdf({ paddingBytes: 64 * 1024 });
  signed = await sign(unsigned, p12s.qualified);
});

describe("validateQesPdf", () => {
  it("accepts a PDF signed with a qualified certificate of a trusted CA, naming the signer and the signing time", async () => {
    const result = await validate(signed);
    expect(result).toEqual({
      valid: true,
      signatures: 1,
      signer: {
        commonName: "Dr. Erika Test",
        subject: "CN=Dr. Erika Test, O=Praxis Test, C=DE",
        serialNumber: expect.stringMatching(/^[0-9A-F]+$/),
        issuer: "CN=Test Qualified Root CA, O=Test TSP, C=DE",
      },
      signingTime,
    });
  });

  it("refuses a PDF without a signature", async () => {
    expect(failure(await validate(unsigned))).toMatchObject({ code: "unsigned", message: expect.stringMatching(/no signature/) });
  });

  it("refuses a signature field that was prepared but never signed", async () => {
    const document = await PDFDocument.load(unsigned);
    pdflibAddPlaceholder({ pdfDoc: document, reason: "", contactInfo: "", name: "", location: "" });
    const prepared = Buffer.from(await document.save({ useObjectStreams: false }));
    expect(failure(await validate(prepared))).toMatchObject({ code: "unsigned", message: expect.stringMatching(/never signed/) });
  });

  it("refuses a signature value that does not verify", async () => {
    const { numbers } = byteRangeOf(signed);
    const der = Buffer.from(signed.subarray(numbers[1] + 1, numbers[2] - 1).toString("latin1"), "hex");
    const derLength = asn1.fromBER(der).offset;
    const tampered = Buffer.from(signed);
    // The last byte of the CMS structure is the last byte of the signer's signature value.
    const at = numbers[1] + 1 + (derLength - 1) * 2;
    tampered[at] = tampered[at] === 0x30 ? 0x31 : 0x30;
    expect(failure(await validate(tampered))).toMatchObject({ code: "bad_signature", message: expect.stringMatching(/does not verify/) });
  });

  it("refuses a signature whose certificate chains to a CA outside the trust anchors", async () => {
    const result = failure(await validate(await sign(unsigned, p12s.foreign)));
    expect(result).toMatchObject({ code: "untrusted", message: expect.stringContaining("CN=Dr. Foreign") });
    // Trusted once its CA is an anchor; the first CA alone does not help.
    expect((await validate(await sign(unsigned, p12s.foreign), [ca.certificatePem, otherCa.certificatePem])).valid).toBe(true);
    expect(failure(await validate(signed, [])).code).toBe("untrusted");
  });

  it("refuses a self-signed signer certificate that is not an anchor", async () => {
    expect(failure(await validate(await sign(unsigned, p12s.selfSigned))).code).toBe("untrusted");
  });

  it("refuses a certificate without QcCompliance", async () => {
    const result = failure(await validate(await sign(unsigned, p12s.notQualified)));
    expect(result).toMatchObject({ code: "not_qualified", message: expect.stringMatching(/QcCompliance/) });
  });

  it("refuses a certificate that was expired at the signing time, and accepts one signed while it was valid", async () => {
    const late = failure(await validate(await sign(unsigned, p12s.expired)));
    expect(late).toMatchObject({ code: "not_valid_at_signing_time", message: expect.stringMatching(/not valid when the document was signed/) });
    const inTime = await validate(await sign(unsigned, p12s.expired, new Date(Math.floor((now.getTime() - 2 * YEAR) / 1000) * 1000)));
    expect(inTime).toMatchObject({ valid: true, signer: { commonName: "Dr. Expired" } });
  });

  it("refuses a signing time in the future", async () => {
    const future = new Date(Math.floor((now.getTime() + 3600_000) / 1000) * 1000);
    expect(failure(await validate(await sign(unsigned, p12s.qualified, future))).code).toBe("not_valid_at_signing_time");
  });

  it("detects a byte changed inside the signed range", async () => {
    const tampered = Buffer.from(signed);
    const image = tampered.indexOf("stream", tampered.indexOf("/Subtype /Image"));
    tampered[image + 100] ^= 0xff;
    expect(failure(await validate(tampered))).toMatchObject({ code: "digest_mismatch", message: expect.stringMatching(/changed after it was signed/) });
  });

  it("detects bytes appended after signing, also as an incremental update", async () => {
    const appended = Buffer.concat([signed, Buffer.from("\n% appended after signing\n")]);
    expect(failure(await validate(appended))).toMatchObject({ code: "byte_range", message: expect.stringMatching(/added after signing/) });

    // A well-formed incremental update that replaces the catalog's page tree entry.
    const previousXref = Number(/startxref\s+(\d+)/.exec(signed.subarray(signed.length - 64).toString("latin1"))![1]);
    const objectOffset = signed.length + 1;
    const body = "\n99 0 obj\n<< /Type /Annot /Subtype /Text /Contents (changed) >>\nendobj\n";
    const xrefOffset = signed.length + body.length;
    const update = `${body}xref\n99 1\n${String(objectOffset).padStart(10, "0")} 00000 n \ntrailer\n<< /Size 100 /Prev ${previousXref} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
    const incremental = Buffer.concat([signed, Buffer.from(update, "latin1")]);
    expect(failure(await validate(incremental)).code).toBe("byte_range");
  });

  it("refuses a ByteRange that leaves more than the signature value unsigned", async () => {
    const { at, end, numbers } = byteRangeOf(signed);
    const [, a, b, c] = numbers;
    const rewrite = (range: number[]) => {
      const text = `/ByteRange [${range.join(" ")}]`;
      const original = end + 1 - at;
      expect(text.length).toBeLessThanOrEqual(original);
      return Buffer.concat([signed.subarray(0, at), Buffer.from(text.padEnd(original, " ")), signed.subarray(end + 1)]);
    };
    // The gap starts 20 bytes early (taking in "/Contents" and more), and ends 20 bytes late.
    expect(failure(await validate(rewrite([0, a - 20, b, c]))).code).toBe("byte_range");
    expect(failure(await validate(rewrite([0, a, b + 20, c - 20]))).code).toBe("byte_range");
    // Covering less than the whole file.
    expect(failure(await validate(rewrite([0, a, b, c - 10]))).code).toBe("byte_range");
  });

  it("refuses a truncated PDF and files that are not PDFs", async () => {
    for (const broken of [
      signed.subarray(0, Math.floor(signed.length / 2)),
      signed.subarray(0, signed.length - 200),
      Buffer.from("hello, this is not a PDF at all ".repeat(10)),
      Buffer.alloc(0),
      Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(2000, 0x41), Buffer.from("\nstartxref\n9\n%%EOF\n")]),
    ]) {
      const result = failure(await validate(broken));
      expect(result.code, result.message).toBe("corrupt_pdf");
      expect(result.message).not.toMatch(/\bat .*\(.*:\d+:\d+\)/); // no stack trace
    }
  });

  it("refuses a PDF with two signatures when one of them is invalid", async () => {
    // Signing again re-saves the file: the first signature no longer covers it.
    const twice = await sign(signed, p12s.qualified);
    const document = await PDFDocument.load(twice);
    expect(document.getForm().getFields().filter((f) => f.constructor.name === "PDFSignature")).toHaveLength(2);
    const result = failure(await validate(twice));
    expect(result).toMatchObject({ code: "byte_range", message: expect.stringMatching(/^Signature 1 of 2/) });
  });

  it("never accepts, and never throws on, a file changed outside the signature value", async () => {
    const { numbers } = byteRangeOf(signed);
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 300; i++) {
      let at = random(signed.length - 1);
      if (at >= numbers[1] && at < numbers[2]) at = random(numbers[1]);
      const mutated =
        i % 3 === 0
          ? Buffer.concat([signed.subarray(0, at), Buffer.from([(signed[at] + 1 + random(255)) % 256]), signed.subarray(at + 1)])
          : i % 3 === 1
            ? Buffer.concat([signed.subarray(0, at), signed.subarray(at + 1)])
            : signed.subarray(0, at);
      const result = await validate(mutated);
      expect(result.valid, `mutation ${i} at ${at}`).toBe(false);
    }
  });

  // Its speed (target p95 < 50 ms) is measured by `npm run bench -- --scenario prescriptions`, not
  // here: a wall-clock bound in a test fails whenever the machine is busy.
  it("validates a 1 MB signed PDF", async () => {
    const large = await sign(await samplePrescriptionPdf({ paddingBytes: 1024 * 1024 }), p12s.qualified);
    expect(large.length).toBeGreaterThan(1024 * 1024);
    expect(await validate(large)).toMatchObject({ valid: true });
  });
});

describe("sandbox QES", () => {
  afterEach(() => {
    delete process.env.QES_TRUST_ANCHORS;
    reloadConfig();
  });

  it("creates the sandbox CA and signer once, with private files, and its signatures are trusted for sandbox organisations only", async () => {
    const dataDir = process.env.DATA_DIR!;
    const sandbox = await ensureSandboxQes(dataDir);
    expect(sandbox.caCertPath).toBe(path.resolve(dataDir, "qes", "ca.pem"));
    for (const file of [sandbox.signerP12Path, path.resolve(dataDir, "qes", "ca-key.pem"), path.resolve(dataDir, "qes", "signer.json")]) {
      expect(statSync(file).mode & 0o777).toBe(0o600);
    }
    expect(await ensureSandboxQes(dataDir)).toEqual(sandbox);

    const pdf = await signPdfWithP12(unsigned, readFileSync(sandbox.signerP12Path), sandbox.signerP12Password);
    const sandboxResult = await validateQesPdf(pdf, { trustAnchors: await trustAnchorsFor({ sandbox: true }) });
    expect(sandboxResult).toMatchObject({ valid: true, signer: { commonName: SANDBOX_SIGNER_NAME } });
    expect(failure(await validateQesPdf(pdf, { trustAnchors: await trustAnchorsFor({ sandbox: false }) })).code).toBe("untrusted");

    // A real CA configured through QES_TRUST_ANCHORS is trusted for every organisation.
    process.env.QES_TRUST_ANCHORS = ca.certificatePem;
    reloadConfig();
    expect(await trustAnchorsFor({ sandbox: false })).toHaveLength(1);
    expect((await validateQesPdf(signed, { trustAnchors: await trustAnchorsFor({ sandbox: false }) })).valid).toBe(true);
    expect(await trustAnchorsFor({ sandbox: true })).toHaveLength(2);
  });

  it("another data directory gets its own sandbox CA", async () => {
    const other = await ensureSandboxQes(mkdtempSync(path.join(os.tmpdir(), "rx-qes-")));
    const pdf = await signPdfWithP12(unsigned, readFileSync(other.signerP12Path), other.signerP12Password);
    expect(failure(await validateQesPdf(pdf, { trustAnchors: await trustAnchorsFor({ sandbox: true }) })).code).toBe("untrusted");
    expect((await validateQesPdf(pdf, { trustAnchors: [other.caCertPem] })).valid).toBe(true);
  });

  it("reads QES_TRUST_ANCHORS as PEM text or a file path, and says what is wrong with a bad one", async () => {
    const bundle = `${ca.certificatePem}\n${otherCa.certificatePem}`;
    expect(parseTrustAnchors(bundle)).toHaveLength(2);
    const sandbox = await ensureSandboxQes(process.env.DATA_DIR!);
    expect(parseTrustAnchors(sandbox.caCertPath)).toHaveLength(1);
    expect(parseTrustAnchors(ca.certificatePem.replace(/\n/g, "\\n"))).toHaveLength(1);
    expect(() => parseTrustAnchors("/nonexistent/anchors.pem")).toThrow(/QES_TRUST_ANCHORS: cannot read the PEM file \/nonexistent\/anchors.pem/);
    expect(() => parseTrustAnchors("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----")).toThrow(/not a valid X.509 certificate/);
    expect(() => parseTrustAnchors(sandbox.signerP12Path)).toThrow(/no "-----BEGIN CERTIFICATE-----" block/);

    process.env.QES_TRUST_ANCHORS = "/nonexistent/anchors.pem";
    reloadConfig();
    expect(() => configuredTrustAnchors()).toThrow(/QES_TRUST_ANCHORS/);
  });
});
