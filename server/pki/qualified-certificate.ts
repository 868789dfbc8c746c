import * as asn1 from "asn1js";
import * as pkijs from "pkijs";
import { OID_QC_COMPLIANCE, OID_QC_STATEMENTS } from "./oids";
import { OID_EC_PUBLIC_KEY, OID_RSA_ENCRYPTION } from "./pades";
import { formatName, nameAttribute, parseCertificate } from "./pem";

/**
 * What a signing certificate says about its holder and its use, read once (pkijs): the names of the
 * subject (CN, givenName, surname, title), the issuer, serial number, validity, whether it is an EU
 * qualified certificate (qcStatements with QcCompliance, ETSI EN 319 412-5), whether its key usage
 * allows signing, and the key's algorithm. Judging it is the caller's (linking a doctor's
 * credential: server/domain/trust-service/credential-rules.ts).
 */
export type SigningCertificateFacts = {
  subject: string;
  commonName: string | null;
  givenName: string | null;
  surname: string | null;
  title: string | null;
  issuer: string;
  /** The issuer's organisation (O), else its common name: the trust service as people name it. */
  issuerName: string;
  /** Hex, upper case, without leading zero bytes. */
  serialNumber: string;
  validFrom: Date;
  validTo: Date;
  qcCompliance: boolean;
  /** keyUsage absent, or with digitalSignature or nonRepudiation. */
  signingKeyUsage: boolean;
  keyAlgorithm: "rsa" | "ecdsa" | "other";
};

const OID_KEY_USAGE = "2.5.29.15";

export function readSigningCertificate(der: Uint8Array): SigningCertificateFacts {
  const certificate = parseCertificate(Uint8Array.from(der) as Uint8Array<ArrayBuffer>);
  const attribute = (type: string) => nameAttribute(certificate.subject, type);
  const statements = certificate.extensions?.find((e) => e.extnID === OID_QC_STATEMENTS)?.parsedValue;
  const keyUsage = certificate.extensions?.find((e) => e.extnID === OID_KEY_USAGE)?.parsedValue;
  // Bit 0 digitalSignature, bit 1 nonRepudiation (contentCommitment).
  const usageBits = keyUsage instanceof asn1.BitString ? (keyUsage.valueBlock.valueHexView[0] ?? 0) : null;
  const keyOid = certificate.subjectPublicKeyInfo.algorithm.algorithmId;
  const serial = Buffer.from(certificate.serialNumber.valueBlock.valueHexView).toString("hex").replace(/^(00)+(?=.)/, "");
  return {
    subject: formatName(certificate.subject),
    commonName: attribute("2.5.4.3"),
    givenName: attribute("2.5.4.42"),
    surname: attribute("2.5.4.4"),
    title: attribute("2.5.4.12"),
    issuer: formatName(certificate.issuer),
    issuerName: nameAttribute(certificate.issuer, "2.5.4.10") ?? nameAttribute(certificate.issuer, "2.5.4.3") ?? formatName(certificate.issuer),
    serialNumber: serial.toUpperCase(),
    validFrom: certificate.notBefore.value,
    validTo: certificate.notAfter.value,
    qcCompliance: statements instanceof pkijs.QCStatements && statements.values.some((s) => s.id === OID_QC_COMPLIANCE),
    signingKeyUsage: usageBits === null || (usageBits & 0xc0) !== 0,
    keyAlgorithm: keyOid === OID_RSA_ENCRYPTION ? "rsa" : keyOid === OID_EC_PUBLIC_KEY ? "ecdsa" : "other",
  };
}
