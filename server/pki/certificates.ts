import { generateKeyPair, randomBytes } from "node:crypto";
import { promisify } from "node:util";
import * as asn1 from "asn1js";
import forge from "node-forge";
import * as pkijs from "pkijs";
import { OID_QC_COMPLIANCE, OID_QC_SSCD, OID_QC_STATEMENTS, OID_QC_TYPE, OID_QC_TYPE_ESIGN } from "./oids";

/**
 * Certificates for the sandbox signer and for tests: a root CA and signer certificates issued by it
 * (or self-signed), built with node-forge on RSA keys from node:crypto, and PKCS#12 bundles that
 * sign-pdf.ts opens. Nothing here validates: that is
 * validate-qes-pdf.ts.
 */

export type IssuedCertificate = {
  certificatePem: string;
  /** PKCS#8 PEM of the private key. */
  privateKeyPem: string;
  commonName: string;
  notBefore: Date;
  notAfter: Date;
};

const generateRsaKeyPair = promisify(generateKeyPair);

async function rsaKeys() {
  const { privateKey } = await generateRsaKeyPair("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  return { privateKeyPem: privateKey, privateKey: key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e) };
}

const addYears = (from: Date, n: number) => {
  const d = new Date(from);
  d.setUTCFullYear(d.getUTCFullYear() + n);
  return d;
};

/** A positive serial number of 16 random bytes, as hex. */
const randomSerial = () => `1${randomBytes(16).toString("hex").slice(1)}`;

/** A person's name parts besides the common name, as qualified certificates for natural persons carry them (ETSI EN 319 412-2). */
export type PersonName = { givenName?: string; surname?: string; title?: string };

function distinguishedName(commonName: string, organisation?: string, person: PersonName = {}): forge.pki.CertificateField[] {
  const utf8 = forge.asn1.Type.UTF8;
  return [
    { name: "commonName", value: commonName, valueTagClass: utf8 },
    ...(person.title ? [{ name: "title", value: person.title, valueTagClass: utf8 }] : []),
    ...(person.givenName ? [{ name: "givenName", value: person.givenName, valueTagClass: utf8 }] : []),
    ...(person.surname ? [{ name: "surname", value: person.surname, valueTagClass: utf8 }] : []),
    ...(organisation ? [{ name: "organizationName", value: organisation, valueTagClass: utf8 }] : []),
    { name: "countryName", value: "DE" },
  ] as forge.pki.CertificateField[];
}

/**
 * The DER value of a qcStatements extension (ETSI EN 319 412-5), built with pkijs/asn1js:
 * QcCompliance (unless compliance is false), QcSSCD and QcType esign.
 */
function qcStatementsValue(options: { compliance?: boolean } = {}): Buffer {
  const statements = [
    ...(options.compliance === false ? [] : [new pkijs.QCStatement({ id: OID_QC_COMPLIANCE })]),
    new pkijs.QCStatement({ id: OID_QC_SSCD }),
    new pkijs.QCStatement({
      id: OID_QC_TYPE,
      type: new asn1.Sequence({ value: [new asn1.ObjectIdentifier({ value: OID_QC_TYPE_ESIGN })] }),
    }),
  ];
  const qcStatements = new pkijs.QCStatements();
  qcStatements.values = statements;
  return Buffer.from(qcStatements.toSchema().toBER(false));
}

type Keys = Awaited<ReturnType<typeof rsaKeys>>;
type Issuer = { certificate: forge.pki.Certificate; privateKey: forge.pki.rsa.PrivateKey };

function build(options: {
  commonName: string;
  organisation?: string;
  person?: PersonName;
  keys: Keys;
  issuer?: Issuer;
  notBefore: Date;
  notAfter: Date;
  extensions: object[];
}): IssuedCertificate & { forgeCertificate: forge.pki.Certificate } {
  const certificate = forge.pki.createCertificate();
  certificate.serialNumber = randomSerial();
  certificate.publicKey = options.keys.publicKey;
  certificate.validity.notBefore = options.notBefore;
  certificate.validity.notAfter = options.notAfter;
  const subject = distinguishedName(options.commonName, options.organisation, options.person);
  certificate.setSubject(subject);
  certificate.setIssuer(options.issuer ? options.issuer.certificate.subject.attributes : subject);
  const authorityKeyId = (options.issuer?.certificate ?? certificate).generateSubjectKeyIdentifier().getBytes();
  certificate.setExtensions([
    ...options.extensions,
    { name: "subjectKeyIdentifier" },
    { name: "authorityKeyIdentifier", keyIdentifier: authorityKeyId },
  ]);
  certificate.sign(options.issuer?.privateKey ?? options.keys.privateKey, forge.md.sha256.create());
  return {
    certificatePem: forge.pki.certificateToPem(certificate),
    privateKeyPem: options.keys.privateKeyPem,
    commonName: options.commonName,
    notBefore: options.notBefore,
    notAfter: options.notAfter,
    forgeCertificate: certificate,
  };
}

export async function createRootCa(options: { commonName: string; organisation?: string; years?: number; notBefore?: Date }): Promise<IssuedCertificate> {
  const notBefore = options.notBefore ?? new Date(Date.now() - 60_000);
  const { forgeCertificate: _, ...issued } = build({
    commonName: options.commonName,
    organisation: options.organisation,
    keys: await rsaKeys(),
    notBefore,
    notAfter: addYears(notBefore, options.years ?? 10),
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  return issued;
}

export type SignerCertificateOptions = {
  commonName: string;
  organisation?: string;
  /** givenName, surname and title attributes of the subject besides its common name. */
  person?: PersonName;
  /** Issuing CA; omitted: a self-signed signer certificate. */
  issuer?: Pick<IssuedCertificate, "certificatePem" | "privateKeyPem">;
  /** With the qcStatements extension carrying QcCompliance (default true). */
  qualified?: boolean;
  notBefore?: Date;
  notAfter?: Date;
  years?: number;
};

/** A signer certificate: end entity, keyUsage nonRepudiation + digitalSignature, qcStatements (QcCompliance unless qualified is false). */
export async function issueSignerCertificate(options: SignerCertificateOptions): Promise<IssuedCertificate> {
  const notBefore = options.notBefore ?? new Date(Date.now() - 60_000);
  const issuer = options.issuer
    ? {
        certificate: forge.pki.certificateFromPem(options.issuer.certificatePem),
        privateKey: forge.pki.privateKeyFromPem(options.issuer.privateKeyPem) as forge.pki.rsa.PrivateKey,
      }
    : undefined;
  const { forgeCertificate: _, ...issued } = build({
    commonName: options.commonName,
    organisation: options.organisation,
    person: options.person,
    keys: await rsaKeys(),
    issuer,
    notBefore,
    notAfter: options.notAfter ?? addYears(notBefore, options.years ?? 2),
    extensions: [
      { name: "basicConstraints", cA: false, critical: true },
      { name: "keyUsage", digitalSignature: true, nonRepudiation: true, critical: true },
      { id: OID_QC_STATEMENTS, critical: false, value: qcStatementsValue({ compliance: options.qualified !== false }).toString("binary") },
    ],
  });
  return issued;
}

/** Apple's Pass Type ID certificate extension (marks a pass signer). */
const OID_APPLE_PASS_TYPE_ID = "1.2.840.113635.100.6.1.16";

/**
 * A Wallet pass signer certificate, as Apple issues for a pass type identifier (CN "Pass Type ID: …",
 * OU the team identifier is not modelled): signs the pass's manifest and is the TLS client
 * certificate towards APNs (clientAuth).
 */
export async function issuePassSignerCertificate(options: {
  passTypeIdentifier: string;
  organisation: string;
  issuer: Pick<IssuedCertificate, "certificatePem" | "privateKeyPem">;
  years?: number;
}): Promise<IssuedCertificate> {
  const notBefore = new Date(Date.now() - 60_000);
  const { forgeCertificate: _, ...issued } = build({
    commonName: `Pass Type ID: ${options.passTypeIdentifier}`,
    organisation: options.organisation,
    keys: await rsaKeys(),
    issuer: {
      certificate: forge.pki.certificateFromPem(options.issuer.certificatePem),
      privateKey: forge.pki.privateKeyFromPem(options.issuer.privateKeyPem) as forge.pki.rsa.PrivateKey,
    },
    notBefore,
    notAfter: addYears(notBefore, options.years ?? 2),
    extensions: [
      { name: "basicConstraints", cA: false, critical: true },
      { name: "keyUsage", digitalSignature: true, critical: true },
      { name: "extKeyUsage", clientAuth: true },
      { id: OID_APPLE_PASS_TYPE_ID, critical: false, value: forge.asn1.toDer(forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.NULL, false, "")).getBytes() },
    ],
  });
  return issued;
}

/**
 * A PKCS#12 bundle (AES-256, PBKDF2) of the signer's key and certificate plus its chain (issuer
 * certificates), so the signature carries every certificate a validator needs besides its anchor.
 */
export function toPkcs12(signer: IssuedCertificate, chainPems: string[], password: string): Buffer {
  const key = forge.pki.privateKeyFromPem(signer.privateKeyPem);
  const certificates = [signer.certificatePem, ...chainPems].map((pem) => forge.pki.certificateFromPem(pem));
  const bundle = forge.pkcs12.toPkcs12Asn1(key, certificates, password, { algorithm: "aes256", friendlyName: signer.commonName });
  return Buffer.from(forge.asn1.toDer(bundle).getBytes(), "binary");
}
