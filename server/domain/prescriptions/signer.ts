import path from "node:path";
import { errorText, type Message } from "@/i18n/error-text";
import { config } from "@/server/config";
import type { Db, Tx } from "@/server/db/client";
import { UnprocessableError } from "@/server/domain/errors";
import { trustServiceOf } from "@/server/domain/trust-service/connection";
import { linkedCredentialOf } from "@/server/domain/trust-service/doctor-credential";
import { remoteSigner, type SigningAuthorisation } from "@/server/domain/trust-service/remote-signer";
import { readSigningCertificate } from "@/server/pki/qualified-certificate";
import { ensureSandboxPersonalSigner } from "@/server/pki/sandbox-ca";
import { openPkcs12, signPdfWithKey } from "@/server/pki/sign-pdf";

export type { SigningAuthorisation };

/**
 * The qualified signer a doctor signs prescriptions with (the port; decisions.ts uses it). Nothing
 * chooses a key that is not the prescribing doctor's own:
 *
 * - sandbox organisations: the doctor's sandbox certificate, in their own name, issued by the
 *   sandbox QES CA of DATA_DIR/qes and kept there (created on first use); no authorisation. Its
 *   signatures validate for sandbox organisations only (trust-anchors.ts).
 * - every other organisation: the doctor's own credential at the organisation's qualified trust
 *   service (CSC API v2, server/domain/trust-service/), authorised for each signature with the
 *   one-time password or PIN the doctor typed for it. No trust service configured, or no credential
 *   linked by this doctor: 422, saying what to do. A prescription is never given a signature that is
 *   not the doctor's.
 *
 * `identity` is known before anything is signed (the signature statement rendered into the PDF
 * names it): the certificate's subject and its issuer, the trust service as people name it.
 */
export type SignerIdentity = { subject: string; issuer: string };

export type QesSigner = {
  /** Whose signature it is, for messages. */
  description: string;
  identity: SignerIdentity;
  /** The PDF with a PAdES signature (detached CMS, SHA-256, signingTime, signingCertificateV2, the certificate chain). */
  sign(pdf: Buffer, options: { signingTime: Date; reason: string }): Promise<Buffer>;
  /** Several PDFs at once: one authorisation for all of them at a trust service; in their order. */
  signAll(pdfs: Buffer[], options: { signingTime: Date; reason: string }): Promise<Buffer[]>;
};

export class NoQesSignerError extends UnprocessableError {
  constructor(message: Message) {
    super(message);
  }
}

/**
 * The doctor's signer. `db` reads the organisation's trust service and the doctor's credential:
 * inside a transaction, its `tx` (a read outside it would wait for it on the embedded database).
 */
export async function qesSignerFor(
  db: Db | Tx,
  organisation: { id: string; sandbox: boolean },
  doctor: { id: string; displayName: string },
  authorisation?: SigningAuthorisation,
): Promise<QesSigner> {
  if (organisation.sandbox) return sandboxSigner(doctor);
  const [service, credential] = await Promise.all([trustServiceOf(db, organisation.id), linkedCredentialOf(db, organisation.id, doctor.id)]);
  if (!service) throw new NoQesSignerError(errorText("prescriptions.signer.noTrustService"));
  if (!credential) throw new NoQesSignerError(errorText("prescriptions.signer.noCredential", { doctor: doctor.displayName }));
  const remote = remoteSigner(service, credential, authorisation);
  return {
    description: `the qualified credential of ${credential.subjectName} at ${service.displayName}`,
    identity: remote.identity,
    signAll: remote.signAll,
    sign: async (pdf, options) => (await remote.signAll([pdf], options))[0],
  };
}

async function sandboxSigner(doctor: { id: string; displayName: string }): Promise<QesSigner> {
  const personal = await ensureSandboxPersonalSigner(path.resolve(config().DATA_DIR), `doctor-${doctor.id}`, doctor.displayName);
  const key = openPkcs12(personal.p12, personal.password);
  const certificate = readSigningCertificate(key.certificates[0]);
  const sign = (pdf: Buffer, options: { signingTime: Date; reason: string }) => signPdfWithKey(pdf, key, { ...options, name: doctor.displayName });
  return {
    description: `the sandbox QES signer of ${doctor.displayName}`,
    identity: { subject: certificate.commonName ?? doctor.displayName, issuer: certificate.issuerName },
    sign,
    signAll: (pdfs, options) => Promise.all(pdfs.map((pdf) => sign(pdf, options))),
  };
}
