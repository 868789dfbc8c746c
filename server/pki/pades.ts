import { createHash } from "node:crypto";
import { pdflibAddPlaceholder } from "@signpdf/placeholder-pdf-lib";
import * as asn1 from "asn1js";
import * as pkijs from "pkijs";
import { PDFDocument } from "pdf-lib";
import { parseCertificate } from "./pem";

/**
 * The one CMS builder of the service: a PDF signature whose value a key outside this module makes
 * (a trust service's signatures/signHash, or the sandbox's PKCS#12 in sign-pdf.ts), in two steps
 * so that many documents can be authorised and signed at once:
 *
 *   1. preparePadesSignature: a signature field and widget (@signpdf/placeholder-pdf-lib, the PDF
 *      re-saved by pdf-lib), the /ByteRange set, its SHA-256 digest, and the signed attributes
 *      contentType, signingTime, messageDigest and signingCertificateV2 (ESS, RFC 5035: binds the
 *      signer's certificate, so it cannot be swapped), DER-encoded as the SET OF that is signed;
 *   2. embed(signatureValue): the SignerInfo with that value, the SignedData with the certificate
 *      chain, DER, hex-encoded into /Contents.
 *
 * The detached CMS is under /SubFilter adbe.pkcs7.detached, which carries its signing time in the
 * signing-time attribute (order intake judges the certificate's validity at that time,
 * validate-qes-pdf.ts); docs/decisions/prescriptions.md#remote-qualified-signatures says why not ETSI.CAdES.detached.
 */

export const OID_SHA256 = "2.16.840.1.101.3.4.2.1";
export const OID_RSA_ENCRYPTION = "1.2.840.113549.1.1.1";
export const OID_SHA256_WITH_RSA = "1.2.840.113549.1.1.11";
export const OID_EC_PUBLIC_KEY = "1.2.840.10045.2.1";
export const OID_ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
const OID_DATA = "1.2.840.113549.1.7.1";
const OID_SIGNED_DATA = "1.2.840.113549.1.7.2";
const OID_CONTENT_TYPE = "1.2.840.113549.1.9.3";
const OID_MESSAGE_DIGEST = "1.2.840.113549.1.9.4";
const OID_SIGNING_TIME = "1.2.840.113549.1.9.5";
const OID_SIGNING_CERTIFICATE_V2 = "1.2.840.113549.1.9.16.2.47";

export type PadesKeyAlgorithm = "rsa" | "ecdsa";

export type PadesSigner = {
  /** DER certificates: the signer's first, then the certificates of its chain a validator needs. */
  certificates: Uint8Array[];
  /** How the key signs: RSA PKCS#1 v1.5 or ECDSA, both over SHA-256. */
  keyAlgorithm: PadesKeyAlgorithm;
};

export type PadesOptions = {
  /** The signingTime attribute and the signature dictionary's /M. */
  signingTime: Date;
  reason: string;
  location?: string;
  /** The signature dictionary's /Name: who signs, as people read it. */
  name?: string;
  /** Bytes reserved for the CMS structure in /Contents (default 8192; the hex string is twice that). */
  signatureLength?: number;
};

export type PadesSigningRequest = {
  /** The DER of the signed attributes (a SET OF): what a key signs with SHA-256. */
  signedAttributes: Buffer;
  /** SHA-256 of signedAttributes: what a remote signing service signs (CSC signatures/signHash). */
  digest: Buffer;
  /**
   * The signed PDF: the signature value the key made over signedAttributes (RSA: the PKCS#1 v1.5
   * block; ECDSA: DER Ecdsa-Sig-Value, or r‖s, which is converted) in the CMS, in /Contents.
   */
  embed(signatureValue: Buffer): Buffer;
};

export class PadesError extends Error {}

const sha256 = (...parts: Uint8Array[]) => {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** A copy of exactly these bytes (a Node Buffer's .buffer may be its whole shared pool). */
const toArrayBuffer = (bytes: Uint8Array): ArrayBuffer => {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
};

export async function preparePadesSignature(pdf: Buffer, signer: PadesSigner, options: PadesOptions): Promise<PadesSigningRequest> {
  if (signer.certificates.length === 0) throw new PadesError("A signature needs the signer's certificate.");
  const chain = signer.certificates.map((der) => parseCertificate(Uint8Array.from(der) as Uint8Array<ArrayBuffer>));
  const prepared = await withPlaceholder(pdf, options);
  const { signedBytes, insertAt, placeholderLength } = setByteRange(prepared);
  const attributes = signedAttributesOf(sha256(...signedBytes.parts), options.signingTime, chain[0], signer.certificates[0]);
  const signedAttributes = Buffer.from(new asn1.Set({ value: attributes.map((a) => a.toSchema()) }).toBER(false));
  return {
    signedAttributes,
    digest: sha256(signedAttributes),
    embed(signatureValue) {
      const value = signer.keyAlgorithm === "ecdsa" ? ecdsaSignatureDer(signatureValue) : signatureValue;
      const cms = signedDataOf(chain, attributes, signer.keyAlgorithm, value);
      if (cms.length * 2 > placeholderLength) {
        throw new PadesError(`The signature (${cms.length} bytes) does not fit the space reserved for it (${placeholderLength / 2} bytes).`);
      }
      const hex = cms.toString("hex").padEnd(placeholderLength, "0");
      return Buffer.concat([signedBytes.pdf.subarray(0, insertAt), Buffer.from(`<${hex}>`), signedBytes.pdf.subarray(insertAt)]);
    },
  };
}

/**
 * A signature field and widget on the first page; the document is re-saved by pdf-lib (not an
 * incremental update), so a signature the PDF already carried no longer covers the file.
 */
async function withPlaceholder(pdf: Buffer, options: PadesOptions): Promise<Buffer> {
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  if (document.getPageCount() === 0) document.addPage();
  pdflibAddPlaceholder({
    pdfDoc: document,
    reason: options.reason,
    contactInfo: "",
    name: options.name ?? "",
    location: options.location ?? "",
    signingTime: options.signingTime,
    subFilter: "adbe.pkcs7.detached",
    ...(options.signatureLength ? { signatureLength: options.signatureLength } : {}),
  });
  return Buffer.from(await document.save({ useObjectStreams: false, updateFieldAppearances: false }));
}

/**
 * The /ByteRange placeholder replaced by the two ranges around the /Contents hex string, and the
 * file without that string (what is signed), as @signpdf/signpdf's SignPdf does before it calls its
 * signer: done here so that the digest can leave this process before the value comes back.
 */
function setByteRange(prepared: Buffer): { signedBytes: { pdf: Buffer; parts: Buffer[] }; insertAt: number; placeholderLength: number } {
  // pdf-lib ends the file with "%%EOF\n"; the signed file ends at %%EOF, as SignPdf's does.
  let pdf = prepared.at(-1) === 0x0a ? prepared.subarray(0, -1) : prepared;
  const placeholder = /\/ByteRange\s*\[\s*0\s+\/\*{10}\s+\/\*{10}\s+\/\*{10}\s*\]/.exec(pdf.toString("latin1"));
  if (!placeholder) throw new PadesError("The prepared PDF has no /ByteRange placeholder.");
  const byteRangeEnd = placeholder.index + placeholder[0].length;
  const contentsTag = pdf.indexOf("/Contents ", byteRangeEnd);
  const start = pdf.indexOf("<", contentsTag);
  const end = pdf.indexOf(">", start);
  if (contentsTag < 0 || start < 0 || end < 0) throw new PadesError("The prepared PDF has no /Contents placeholder.");
  const withBrackets = end + 1 - start;
  const range = [0, start, start + withBrackets, pdf.length - (start + withBrackets)];
  const actual = `/ByteRange [${range.join(" ")}]`.padEnd(placeholder[0].length, " ");
  pdf = Buffer.concat([pdf.subarray(0, placeholder.index), Buffer.from(actual), pdf.subarray(byteRangeEnd)]);
  const without = Buffer.concat([pdf.subarray(0, range[1]), pdf.subarray(range[2])]);
  return { signedBytes: { pdf: without, parts: [without] }, insertAt: range[1], placeholderLength: withBrackets - 2 };
}

function algorithm(oid: string, nullParameters = false): pkijs.AlgorithmIdentifier {
  return new pkijs.AlgorithmIdentifier({ algorithmId: oid, ...(nullParameters ? { algorithmParams: new asn1.Null() } : {}) });
}

/**
 * ESS signingCertificateV2 (RFC 5035): the SHA-256 of the signer's certificate and its issuer and
 * serial number. SHA-256 is the hashAlgorithm's DEFAULT, so DER leaves it out.
 */
function signingCertificateV2(certificate: pkijs.Certificate, der: Uint8Array): asn1.Sequence {
  const issuerSerial = new pkijs.IssuerSerial({
    issuer: new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: certificate.issuer })] }),
    serialNumber: certificate.serialNumber,
  });
  const essCertIdV2 = new asn1.Sequence({ value: [new asn1.OctetString({ valueHex: toArrayBuffer(sha256(der)) }), issuerSerial.toSchema()] });
  return new asn1.Sequence({ value: [new asn1.Sequence({ value: [essCertIdV2] })] });
}

/** RFC 5652 wants UTCTime for 1950–2049 and GeneralizedTime otherwise. */
const timeValue = (at: Date) => (at.getUTCFullYear() < 2050 ? new asn1.UTCTime({ valueDate: at }) : new asn1.GeneralizedTime({ valueDate: at }));

function signedAttributesOf(documentDigest: Buffer, signingTime: Date, certificate: pkijs.Certificate, certificateDer: Uint8Array): pkijs.Attribute[] {
  const attributes = [
    new pkijs.Attribute({ type: OID_CONTENT_TYPE, values: [new asn1.ObjectIdentifier({ value: OID_DATA })] }),
    new pkijs.Attribute({ type: OID_SIGNING_TIME, values: [timeValue(signingTime)] }),
    new pkijs.Attribute({ type: OID_MESSAGE_DIGEST, values: [new asn1.OctetString({ valueHex: toArrayBuffer(documentDigest) })] }),
    new pkijs.Attribute({ type: OID_SIGNING_CERTIFICATE_V2, values: [signingCertificateV2(certificate, certificateDer)] }),
  ];
  // DER orders a SET OF by the encodings of its members; the SignerInfo repeats them in this order.
  const encoded = attributes.map((a) => ({ a, der: Buffer.from(a.toSchema().toBER(false)) }));
  encoded.sort((x, y) => compareDer(x.der, y.der));
  return encoded.map((e) => e.a);
}

/** X.690 §11.6: octet strings compared with the shorter padded by zero octets at its end. */
function compareDer(a: Buffer, b: Buffer): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function signedDataOf(chain: pkijs.Certificate[], attributes: pkijs.Attribute[], keyAlgorithm: PadesKeyAlgorithm, signatureValue: Buffer): Buffer {
  const signer = chain[0];
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: signer.issuer, serialNumber: signer.serialNumber }),
    digestAlgorithm: algorithm(OID_SHA256),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes }),
    signatureAlgorithm: keyAlgorithm === "rsa" ? algorithm(OID_RSA_ENCRYPTION, true) : algorithm(OID_ECDSA_WITH_SHA256),
    signature: new asn1.OctetString({ valueHex: toArrayBuffer(signatureValue) }),
  });
  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [algorithm(OID_SHA256)],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID_DATA }),
    certificates: chain,
    signerInfos: [signerInfo],
  });
  const contentInfo = new pkijs.ContentInfo({ contentType: OID_SIGNED_DATA, content: signedData.toSchema(true) });
  return Buffer.from(contentInfo.toSchema().toBER(false));
}

/**
 * CMS carries an ECDSA signature as DER SEQUENCE { r INTEGER, s INTEGER }; some signing services
 * answer the raw r‖s of equal halves (as WebCrypto does), which is converted.
 */
export function ecdsaSignatureDer(value: Buffer): Buffer {
  if (value[0] === 0x30 && value.length >= 8 && value[1] + 2 === value.length) return value;
  if (value.length % 2 !== 0 || value.length < 32) throw new PadesError("The ECDSA signature value is neither DER nor r‖s.");
  const half = value.length / 2;
  const integer = (bytes: Buffer) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    const trimmed = bytes.subarray(i);
    return new asn1.Integer({ valueHex: toArrayBuffer(trimmed[0] & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed) });
  };
  return Buffer.from(new asn1.Sequence({ value: [integer(value.subarray(0, half)), integer(value.subarray(half))] }).toBER(false));
}
