import { readFileSync } from "node:fs";
import path from "node:path";
import { errorText, type Message } from "@/i18n/error-text";
import { config } from "@/server/config";
import { UnprocessableError } from "@/server/domain/errors";
import { p12SignerIdentity, type SignerIdentity } from "@/server/pki/p12-identity";
import { ensureSandboxPersonalSigner } from "@/server/pki/sandbox-ca";
import { signPdfWithP12 } from "@/server/pki/sign-pdf";

/**
 * The qualified signer a doctor signs a prescription with (the port; signPrescription uses it):
 *
 * - sandbox organisations: the sandbox signer, a certificate in the doctor's own name issued by the
 *   sandbox QES CA of DATA_DIR/qes and kept there (created on first use). Its signatures validate
 *   for sandbox organisations only (trust-anchors.ts), like every sandbox signature.
 * - every other organisation: the signer the operator configured (QES_SIGNER_P12 and its password,
 *   a PKCS#12 of a qualified trust service). None configured: signing with a QES is refused (422);
 *   a prescription is never given a signature that is not one.
 */
export type QesSigner = {
  /** Whose signature it is, for messages. */
  description: string;
  /**
   * The certificate's subject (common name) and issuing trust service, known before signing: the
   * document's signature statement names them (render-pdf.tsx).
   */
  identity: SignerIdentity;
  /** The PDF with a PAdES signature (detached CMS, SHA-256, signingTime, the certificate chain). */
  sign(pdf: Buffer, options: { signingTime: Date; reason: string }): Promise<Buffer>;
};

export class NoQesSignerError extends UnprocessableError {
  constructor(message: Message) {
    super(message);
  }
}

export async function qesSignerFor(organisation: { sandbox: boolean }, doctor: { id: string; displayName: string }): Promise<QesSigner> {
  if (organisation.sandbox) {
    const signer = await ensureSandboxPersonalSigner(path.resolve(config().DATA_DIR), `doctor-${doctor.id}`, doctor.displayName);
    return {
      description: `the sandbox QES signer of ${doctor.displayName}`,
      identity: p12SignerIdentity(signer.p12, signer.password),
      sign: (pdf, options) => signPdfWithP12(pdf, signer.p12, signer.password, options),
    };
  }
  const configured = configuredSigner();
  return {
    description: "the configured QES signer",
    identity: cannotOpenAs422(() => p12SignerIdentity(configured.p12, configured.password)),
    async sign(pdf, options) {
      try {
        return await signPdfWithP12(pdf, configured.p12, configured.password, options);
      } catch (error) {
        // A PKCS#12 the password does not open, or one without a key: the setting is wrong, not the request.
        if (/pkcs ?#?12|mac|password|private key/i.test(error instanceof Error ? error.message : "")) {
          throw new NoQesSignerError(errorText("prescriptions.signer.cannotOpen"));
        }
        throw error;
      }
    },
  };
}

/** The configured PKCS#12 does not open with its password, or holds no usable certificate: a wrong setting, a 422. */
function cannotOpenAs422<T>(read: () => T): T {
  try {
    return read();
  } catch {
    throw new NoQesSignerError(errorText("prescriptions.signer.cannotOpen"));
  }
}

let cache: { file: string; p12: Buffer; password: string } | undefined;

/** The operator's PKCS#12 (read once per path). Missing or unreadable: a 422 that says what to configure. */
function configuredSigner(): { p12: Buffer; password: string } {
  const { QES_SIGNER_P12: file, QES_SIGNER_P12_PASSWORD: password } = config();
  if (!file || password === undefined) {
    throw new NoQesSignerError(errorText("prescriptions.signer.none"));
  }
  if (cache?.file !== file) {
    try {
      cache = { file, p12: readFileSync(path.resolve(file)), password };
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : "unreadable";
      throw new NoQesSignerError(errorText("prescriptions.signer.unreadable", { reason }));
    }
  }
  return { p12: cache.p12, password };
}
