import { createHash, webcrypto } from "node:crypto";
import * as asn1 from "asn1js";
import * as pkijs from "pkijs";
import { log } from "@/server/log";
import { OID_QC_COMPLIANCE, OID_QC_STATEMENTS } from "./oids";
import { inContext, QesFailure, readPdfSignatures, type PdfSignature, type QesFailureCode } from "./pdf-signatures";
import { formatName, nameAttribute, parseCertificate, pemCertificateBlocks } from "./pem";

/**
 * Validates the qualified electronic signatures (QES) of a signed PDF, as order intake requires for
 * inline prescriptions (spec: order intake rules 4d and 5). Every signature must:
 *  1. cover the whole file except its own /Contents (pdf-signatures.ts),
 *  2. be a detached CMS SignedData whose messageDigest equals the digest of the signed bytes,
 *  3. verify over its signed attributes with the signer certificate's key,
 *  4. chain from the signer certificate (CMS certificates as intermediates) to a trust anchor,
 *  5. come from a qualified certificate (qcStatements with QcCompliance), and
 *  6. be made while the signer certificate and its chain were valid (the signingTime attribute, or
 *     `now` without one).
 * The first failure decides the result; its message says what is wrong in plain words. Unusable
 * trust anchors are a configuration error and throw.
 */

export type QesSigner = { commonName: string | null; subject: string; serialNumber: string; issuer: string };

export type QesValidation =
  | { valid: true; signatures: number; signer: QesSigner; signingTime: Date | null }
  | { valid: false; code: QesFailureCode; message: string };

export type { QesFailureCode };

export type QesValidationOptions = {
  /** PEM certificates (one or more blocks per entry) of the certificate authorities trusted as roots. */
  trustAnchors: string[];
  now?: Date;
};

/** Signing times this far ahead of `now` are accepted (clock skew between signer and server). */
const CLOCK_SKEW_MS = 5 * 60_000;

const OID_SIGNED_DATA = "1.2.840.113549.1.7.2";
const OID_CONTENT_TYPE = "1.2.840.113549.1.9.3";
const OID_MESSAGE_DIGEST = "1.2.840.113549.1.9.4";
const OID_SIGNING_TIME = "1.2.840.113549.1.9.5";
const OID_RSA_ENCRYPTION = "1.2.840.113549.1.1.1";
const OID_KEY_USAGE = "2.5.29.15";
const OID_SUBJECT_KEY_IDENTIFIER = "2.5.29.14";
const DIGESTS: Record<string, { node: string; webcrypto: string }> = {
  "2.16.840.1.101.3.4.2.1": { node: "sha256", webcrypto: "SHA-256" },
  "2.16.840.1.101.3.4.2.2": { node: "sha384", webcrypto: "SHA-384" },
  "2.16.840.1.101.3.4.2.3": { node: "sha512", webcrypto: "SHA-512" },
};
const DIGEST_NAMES: Record<string, string> = { "1.3.14.3.2.26": "SHA-1", "1.2.840.113549.2.5": "MD5" };

const engine = new pkijs.CryptoEngine({ name: "node", crypto: webcrypto as unknown as Crypto });

export async function validateQesPdf(pdf: Buffer, options: QesValidationOptions): Promise<QesValidation> {
  const now = options.now ?? new Date();
  const anchors = trustAnchorCertificates(options.trustAnchors);
  try {
    const signatures = await readPdfSignatures(pdf);
    let last: { signer: QesSigner; signingTime: Date | null } | undefined;
    for (const [index, signature] of signatures.entries()) {
      try {
        last = await validateSignature(pdf, signature, anchors, now);
      } catch (error) {
        throw signatures.length > 1 && error instanceof QesFailure ? inContext(error, index, signatures.length, signature.fieldName) : error;
      }
    }
    return { valid: true, signatures: signatures.length, signer: last!.signer, signingTime: last!.signingTime };
  } catch (error) {
    if (error instanceof QesFailure) return { valid: false, code: error.code, message: error.message };
    // A structure the libraries could not handle: the file is refused, and the cause logged.
    log.warn("QES validation failed unexpectedly", { error: error instanceof Error ? error.message : String(error) });
    return { valid: false, code: "unsupported", message: "The signature could not be processed: its structure is not supported." };
  }
}

// ── Trust anchors: parsed once per PEM text ──

const anchorCache = new Map<string, pkijs.Certificate[]>();

function trustAnchorCertificates(pems: string[]): pkijs.Certificate[] {
  const anchors: pkijs.Certificate[] = [];
  for (const pem of pems) {
    let parsed = anchorCache.get(pem);
    if (!parsed) {
      const blocks = pemCertificateBlocks(pem);
      if (blocks.length === 0) throw new Error("A QES trust anchor is not a PEM certificate.");
      parsed = blocks.map(parseCertificate);
      if (anchorCache.size > 64) anchorCache.clear();
      anchorCache.set(pem, parsed);
    }
    anchors.push(...parsed);
  }
  return anchors;
}

// ── One signature ──

type Attribute = pkijs.Attribute;

async function validateSignature(
  pdf: Buffer,
  signature: PdfSignature,
  anchors: pkijs.Certificate[],
  now: Date,
): Promise<{ signer: QesSigner; signingTime: Date | null }> {
  const { signedData, signerInfo } = readSignedData(signature.contents);
  const certificates = (signedData.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  const signerCertificate = findSignerCertificate(signerInfo, certificates);

  const digestOid = signerInfo.digestAlgorithm.algorithmId;
  const digest = DIGESTS[digestOid];
  if (!digest) {
    throw new QesFailure("unsupported", `The signature uses the digest algorithm ${DIGEST_NAMES[digestOid] ?? digestOid}; only SHA-256, SHA-384 and SHA-512 are accepted.`);
  }
  const attributes = signerInfo.signedAttrs?.attributes;
  if (!attributes) throw new QesFailure("unsupported", "The signature has no signed attributes (PAdES signatures sign a message digest attribute).");
  const single = (type: string, label: string): Attribute | undefined => {
    const found = attributes.filter((a) => a.type === type);
    if (found.length > 1 || (found.length === 1 && found[0].values.length !== 1)) {
      throw new QesFailure("bad_signature", `The signature's ${label} attribute occurs more than once.`);
    }
    return found[0];
  };
  if (!single(OID_CONTENT_TYPE, "content-type")) throw new QesFailure("bad_signature", "The signature lacks the mandatory content-type signed attribute.");
  const messageDigest = single(OID_MESSAGE_DIGEST, "message-digest")?.values[0];
  if (!(messageDigest instanceof asn1.OctetString)) throw new QesFailure("bad_signature", "The signature lacks the message-digest signed attribute.");
  const signingTime = readSigningTime(single(OID_SIGNING_TIME, "signing-time"));

  // 2. The signed bytes: everything but the /Contents gap, hashed without copying the file.
  const [, gapStart, gapEnd, tailLength] = signature.byteRange;
  const actual = createHash(digest.node).update(pdf.subarray(0, gapStart)).update(pdf.subarray(gapEnd, gapEnd + tailLength)).digest();
  if (!actual.equals(Buffer.from(messageDigest.valueBlock.valueHexView))) {
    throw new QesFailure("digest_mismatch", "The document was changed after it was signed: its digest no longer matches the one in the signature.");
  }

  // 3. The signature over the signed attributes.
  let verified: boolean;
  try {
    const rsa = signerInfo.signatureAlgorithm.algorithmId === OID_RSA_ENCRYPTION;
    verified = await engine.verifyWithPublicKey(
      signerInfo.signedAttrs!.encodedValue,
      signerInfo.signature,
      signerCertificate.subjectPublicKeyInfo,
      signerInfo.signatureAlgorithm,
      rsa ? digest.webcrypto : undefined,
    );
  } catch {
    throw new QesFailure("unsupported", `The signature algorithm ${signerInfo.signatureAlgorithm.algorithmId} or the signer's key type is not supported.`);
  }
  if (!verified) throw new QesFailure("bad_signature", "The signature value does not verify with the signer certificate's public key.");

  // 4.–6. Trust, qualification, validity at the signing time.
  const at = signingTime ?? now;
  if (signingTime && signingTime.getTime() > now.getTime() + CLOCK_SKEW_MS) {
    throw new QesFailure("not_valid_at_signing_time", `The signature claims a signing time in the future (${signingTime.toISOString()}).`);
  }
  const chain = await checkChain(signerCertificate, certificates, anchors, at);
  checkQualified(signerCertificate);
  if (chain === "expired") {
    const { notBefore, notAfter } = signerCertificate;
    const own = notBefore.value > at || notAfter.value < at;
    throw new QesFailure(
      "not_valid_at_signing_time",
      own
        ? `The signer's certificate was not valid when the document was signed (${at.toISOString()}): it is valid from ${notBefore.value.toISOString()} to ${notAfter.value.toISOString()}.`
        : `A certificate authority certificate in the signer's chain was not valid when the document was signed (${at.toISOString()}).`,
    );
  }
  return { signer: describeSigner(signerCertificate), signingTime };
}

function readSignedData(contents: Buffer<ArrayBuffer>): { signedData: pkijs.SignedData; signerInfo: pkijs.SignerInfo } {
  const parsed = asn1.fromBER(contents);
  let contentInfo: pkijs.ContentInfo;
  try {
    if (parsed.offset === -1) throw new Error(parsed.result.error);
    contentInfo = new pkijs.ContentInfo({ schema: parsed.result });
  } catch {
    throw new QesFailure("bad_signature", "The signature value (/Contents) is not a readable CMS structure.");
  }
  // The rest of the reserved space is padding; the signature tools fill it with zeros.
  if (!contents.subarray(parsed.offset).every((b) => b === 0)) {
    throw new QesFailure("bad_signature", "The signature value (/Contents) carries unexpected data after the CMS structure.");
  }
  if (contentInfo.contentType !== OID_SIGNED_DATA) throw new QesFailure("unsupported", "The signature value is a CMS structure other than SignedData.");
  let signedData: pkijs.SignedData;
  try {
    signedData = new pkijs.SignedData({ schema: contentInfo.content });
  } catch {
    throw new QesFailure("bad_signature", "The signature value is not a readable CMS SignedData structure.");
  }
  if (signedData.signerInfos.length !== 1) {
    throw new QesFailure("unsupported", `The signature holds ${signedData.signerInfos.length} signers; exactly one is expected.`);
  }
  if (signedData.encapContentInfo.eContent) {
    throw new QesFailure("unsupported", "The signature embeds its content (adbe.pkcs7.sha1 style); only detached signatures are supported.");
  }
  return { signedData, signerInfo: signedData.signerInfos[0] };
}

function findSignerCertificate(signerInfo: pkijs.SignerInfo, certificates: pkijs.Certificate[]): pkijs.Certificate {
  const sid = signerInfo.sid;
  let found: pkijs.Certificate | undefined;
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    found = certificates.find((c) => c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber));
  } else {
    const block = sid as asn1.Constructed & asn1.Primitive;
    const keyId = Buffer.from(
      block.idBlock.isConstructed ? (block.valueBlock.value[0] as asn1.OctetString).valueBlock.valueHexView : block.valueBlock.valueHexView,
    );
    found = certificates.find((c) => subjectKeyIdentifiers(c).some((id) => id.equals(keyId)));
  }
  if (!found) throw new QesFailure("bad_signature", "The signature does not include its signer's certificate, so it cannot be verified.");
  return found;
}

function subjectKeyIdentifiers(certificate: pkijs.Certificate): Buffer[] {
  const ids = [createHash("sha1").update(certificate.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView).digest()];
  const extension = certificate.extensions?.find((e) => e.extnID === OID_SUBJECT_KEY_IDENTIFIER);
  if (extension?.parsedValue instanceof asn1.OctetString) ids.push(Buffer.from(extension.parsedValue.valueBlock.valueHexView));
  return ids;
}

function readSigningTime(attribute: Attribute | undefined): Date | null {
  if (!attribute) return null;
  const value = attribute.values[0];
  if (value instanceof asn1.UTCTime || value instanceof asn1.GeneralizedTime) {
    const date = value.toDate();
    if (!Number.isNaN(date.getTime())) return date;
  }
  throw new QesFailure("bad_signature", "The signature's signing-time attribute is not a valid time.");
}

const sameCertificate = (a: pkijs.Certificate, b: pkijs.Certificate) => Buffer.from(a.tbsView).equals(Buffer.from(b.tbsView));

/**
 * Builds and checks the path from the signer certificate to a trust anchor at `at` (pkijs: issuer
 * signatures, name chaining, CA flags and key usage of the issuers, validity periods). Returns
 * "expired" when a trusted path exists but a certificate on it was not valid at `at`.
 */
async function checkChain(
  signer: pkijs.Certificate,
  embedded: pkijs.Certificate[],
  anchors: pkijs.Certificate[],
  at: Date,
): Promise<"ok" | "expired"> {
  const untrusted = () =>
    new QesFailure(
      "untrusted",
      `The signer's certificate (${formatName(signer.subject)}, issued by ${formatName(signer.issuer)}) does not chain to a trusted qualified trust service provider.`,
    );
  if (anchors.length === 0) throw untrusted();
  if (anchors.some((a) => sameCertificate(a, signer))) {
    return signer.notBefore.value > at || signer.notAfter.value < at ? "expired" : "ok";
  }
  // Intermediates: the CMS's certificates, without the signer, the anchors and duplicates; the
  // engine takes the last certificate as the one to validate.
  const intermediates: pkijs.Certificate[] = [];
  for (const c of embedded) {
    if (sameCertificate(c, signer) || anchors.some((a) => sameCertificate(a, c)) || intermediates.some((i) => sameCertificate(i, c))) continue;
    intermediates.push(c);
  }
  const chainEngine = new pkijs.CertificateChainValidationEngine({ trustedCerts: anchors, certs: [...intermediates, signer], checkDate: at });
  let result: pkijs.CertificateChainValidationEngineVerifyResult;
  try {
    result = await chainEngine.verify({}, engine);
  } catch {
    throw untrusted();
  }
  if (result.result) return "ok";
  // pkijs: 8 = "The certificate is either not yet valid or expired", checked once a trusted path was found.
  if (result.resultCode === 8) return "expired";
  throw untrusted();
}

/** ETSI EN 319 412-5 QcCompliance in qcStatements; a key usage, when present, that allows signing. */
function checkQualified(certificate: pkijs.Certificate): void {
  const statements = certificate.extensions?.find((e) => e.extnID === OID_QC_STATEMENTS);
  if (!statements) {
    throw new QesFailure("not_qualified", "The signer's certificate is not a qualified certificate: it has no qcStatements extension (QES requires an EU qualified certificate).");
  }
  if (!(statements.parsedValue instanceof pkijs.QCStatements)) {
    throw new QesFailure("not_qualified", "The signer's certificate has an unreadable qcStatements extension.");
  }
  if (!statements.parsedValue.values.some((s) => s.id === OID_QC_COMPLIANCE)) {
    throw new QesFailure("not_qualified", "The signer's certificate is not a qualified certificate: its qcStatements lack the QcCompliance statement.");
  }
  const keyUsage = certificate.extensions?.find((e) => e.extnID === OID_KEY_USAGE)?.parsedValue;
  if (keyUsage instanceof asn1.BitString) {
    const first = keyUsage.valueBlock.valueHexView[0] ?? 0;
    // Bit 0 digitalSignature, bit 1 nonRepudiation (contentCommitment).
    if ((first & 0xc0) === 0) throw new QesFailure("not_qualified", "The signer's certificate's key usage does not allow signing documents.");
  }
}

function describeSigner(certificate: pkijs.Certificate): QesSigner {
  const serial = Buffer.from(certificate.serialNumber.valueBlock.valueHexView).toString("hex").replace(/^(00)+(?=.)/, "");
  return {
    commonName: nameAttribute(certificate.subject, "2.5.4.3"),
    subject: formatName(certificate.subject),
    serialNumber: serial.toUpperCase(),
    issuer: formatName(certificate.issuer),
  };
}
