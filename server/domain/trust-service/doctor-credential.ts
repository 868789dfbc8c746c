import { errorText } from "@/i18n/error-text";
import { database, type Db, type Tx } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { NotFoundError, UnprocessableError, ValidationError } from "@/server/domain/errors";
import { openSecret, sealSecret } from "@/server/domain/webhooks/secret-box";
import { derToPem, pemCertificateBlocks } from "@/server/pki/pem";
import { readSigningCertificate, type SigningCertificateFacts } from "@/server/pki/qualified-certificate";
import { trustServiceOf, type TrustService } from "./connection";
import { credentialInfoOf, listCredentials } from "./csc-credentials";
import { judgeCredential, namesOfSubject } from "./credential-rules";
import { askTrustService } from "./failures";

/**
 * Each doctor's own credential at the organisation's trust service, linked once in the doctors'
 * workspace: the doctor finds it (credentials/list with their user id at the service, or its
 * credential ID), the server reads it (credentials/info with the whole chain) and links it only when
 * its certificate is that doctor's qualified certificate, valid now (credential-rules.ts). The
 * credential ID is sealed at rest and never logged or audited; the certificate chain, subject,
 * issuer, serial number and validity are kept to sign with and to show.
 */

export type SigningStatus = {
  sandbox: boolean;
  trustService: { displayName: string } | null;
  credential: LinkedCredentialSummary | null;
};

export type LinkedCredentialSummary = {
  subjectName: string;
  subject: string;
  issuerName: string;
  serialNumber: string;
  validFrom: Date;
  validTo: Date;
  authFactors: string[];
  linkedAt: Date;
};

const SUMMARY = {
  subjectName: true,
  subject: true,
  issuerName: true,
  serialNumber: true,
  validFrom: true,
  validTo: true,
  authFactors: true,
  linkedAt: true,
} as const;

/** What the doctors' workspace shows before signing: sandbox or not, the trust service, the linked credential. */
export async function doctorSigningStatus(organisationId: string, doctorId: string): Promise<SigningStatus> {
  const db = await database();
  const [organisation, service, credential] = await Promise.all([
    db.organisation.findUniqueOrThrow({ where: { id: organisationId }, select: { sandbox: true } }),
    db.trustServiceConnection.findUnique({ where: { organisationId }, select: { displayName: true } }),
    db.doctorSigningCredential.findFirst({ where: { doctorId, organisationId }, select: SUMMARY }),
  ]);
  return { sandbox: organisation.sandbox, trustService: service, credential };
}

async function configuredService(db: Db | Tx, organisationId: string): Promise<TrustService> {
  const service = await trustServiceOf(db, organisationId);
  if (!service) throw new UnprocessableError(errorText("trustService.notConfigured"));
  return service;
}

export type CredentialChoice = {
  credentialId: string;
  description: string | null;
  subjectName: string | null;
  issuerName: string | null;
  validTo: Date | null;
  /** Empty: it can be linked. */
  problems: ReturnType<typeof errorText>[];
};

/** The credentials the trust service holds for `userId` there, each with what would keep it from being linked. */
export async function listCredentialChoices(organisationId: string, doctorId: string, userId: string): Promise<CredentialChoice[]> {
  const user = userId.trim();
  if (!user || user.length > 200) throw ValidationError.field("userId", errorText("trustService.userIdRequired"));
  const db = await database();
  const doctor = await db.doctor.findFirst({ where: { id: doctorId, organisationId }, select: { displayName: true } });
  if (!doctor) throw new NotFoundError();
  const service = await configuredService(db, organisationId);
  const list = await askTrustService(() => listCredentials(service.connection, user));
  const now = new Date();
  return list.credentialIDs.slice(0, 50).map((credentialId) => {
    const info = list.credentialInfos?.find((i) => i.credentialID === credentialId);
    const der = info?.cert?.certificates?.[0];
    let facts: SigningCertificateFacts | null = null;
    try {
      facts = der ? readSigningCertificate(Buffer.from(der, "base64")) : null;
    } catch {
      facts = null;
    }
    const problems = info && facts ? judged(judgeCredential(info, facts, doctor, now)) : [];
    return {
      credentialId,
      description: info?.description ?? null,
      subjectName: facts ? (namesOfSubject(facts)[0] ?? facts.subject) : null,
      issuerName: facts?.issuerName ?? null,
      validTo: facts?.validTo ?? null,
      problems,
    };
  });
}

const judged = (judgement: ReturnType<typeof judgeCredential>) => (judgement.ok ? [] : judgement.reasons);

/**
 * Links a credential as the doctor's own (replacing one linked before), after reading it at the
 * trust service: refused (422, with every reason) unless credential-rules.ts accepts it. Audited.
 */
export async function linkDoctorCredential(
  organisationId: string,
  doctor: { id: string },
  actor: Actor,
  credentialIdInput: string,
): Promise<LinkedCredentialSummary> {
  const credentialId = credentialIdInput.trim();
  if (!credentialId || credentialId.length > 200) throw ValidationError.field("credentialId", errorText("trustService.credentialIdRequired"));
  const db = await database();
  const known = await db.doctor.findFirst({ where: { id: doctor.id, organisationId }, select: { id: true, displayName: true } });
  if (!known) throw new NotFoundError();
  const service = await configuredService(db, organisationId);
  const info = await askTrustService(() => credentialInfoOf(service.connection, credentialId));
  const chain = (info.cert?.certificates ?? []).map((c) => Buffer.from(c, "base64"));
  if (chain.length === 0) throw new UnprocessableError(errorText("trustService.link.noCertificate"));
  let facts: SigningCertificateFacts;
  try {
    facts = readSigningCertificate(chain[0]);
  } catch {
    throw new UnprocessableError(errorText("trustService.link.noCertificate"));
  }
  const judgement = judgeCredential(info, facts, known, new Date());
  if (!judgement.ok) throw new UnprocessableError(judgement.reasons[0], { credentialId: judgement.reasons });

  const data = {
    organisationId,
    sealedCredentialId: sealSecret(credentialId),
    certificateChainPem: chain.map((der) => derToPem(der)).join(""),
    subject: facts.subject,
    subjectName: namesOfSubject(facts)[0] ?? facts.subject,
    issuer: facts.issuer,
    issuerName: facts.issuerName,
    serialNumber: facts.serialNumber,
    validFrom: facts.validFrom,
    validTo: facts.validTo,
    signAlgorithm: judgement.signAlgorithm,
    authFactors: judgement.factors,
    multisign: info.multisign ?? 1,
    linkedAt: new Date(),
  };
  return db.$transaction(async (tx) => {
    const before = await tx.doctorSigningCredential.findUnique({ where: { doctorId: known.id }, select: { serialNumber: true } });
    const row = await tx.doctorSigningCredential.upsert({ where: { doctorId: known.id }, create: { doctorId: known.id, ...data }, update: data, select: SUMMARY });
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "signing_credential",
      entityId: known.id,
      action: before ? "replaced" : "linked",
      values: { name: known.displayName, serial: facts.serialNumber, issuer: facts.issuerName },
      summary: `Signing credential of "${known.displayName}" ${before ? "replaced" : "linked"}: certificate ${facts.serialNumber} of ${facts.issuerName}`,
      details: { doctor: known.displayName, subject: facts.subject, issuer: facts.issuer, serialNumber: facts.serialNumber, validTo: facts.validTo.toISOString() },
    });
    return row;
  });
}

/** Unlinks the doctor's credential: outside the sandbox they cannot sign until they link one again. Audited. */
export async function unlinkDoctorCredential(organisationId: string, doctor: { id: string }, actor: Actor): Promise<void> {
  const db = await database();
  await db.$transaction(async (tx) => {
    const row = await tx.doctorSigningCredential.findFirst({ where: { doctorId: doctor.id, organisationId }, select: { serialNumber: true, doctor: { select: { displayName: true } } } });
    if (!row) return;
    await tx.doctorSigningCredential.delete({ where: { doctorId: doctor.id } });
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "signing_credential",
      entityId: doctor.id,
      action: "unlinked",
      values: { name: row.doctor.displayName, serial: row.serialNumber },
      summary: `Signing credential of "${row.doctor.displayName}" unlinked: certificate ${row.serialNumber}`,
      details: { doctor: row.doctor.displayName, serialNumber: row.serialNumber },
    });
  });
}

export type LinkedCredential = {
  credentialId: string;
  /** DER, the doctor's certificate first. */
  certificates: Buffer[];
  subjectName: string;
  issuerName: string;
  signAlgorithm: string;
  authFactors: string[];
  multisign: number;
  validTo: Date;
};

/** The doctor's linked credential with its ID opened, to sign with; null when none is linked. Inside a transaction: its `tx`. */
export async function linkedCredentialOf(db: Db | Tx, organisationId: string, doctorId: string): Promise<LinkedCredential | null> {
  const row = await db.doctorSigningCredential.findFirst({ where: { doctorId, organisationId } });
  if (!row) return null;
  return {
    credentialId: openSecret(row.sealedCredentialId),
    certificates: pemCertificateBlocks(row.certificateChainPem),
    subjectName: row.subjectName,
    issuerName: row.issuerName,
    signAlgorithm: row.signAlgorithm,
    authFactors: row.authFactors,
    multisign: row.multisign,
    validTo: row.validTo,
  };
}

