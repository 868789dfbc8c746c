import { createPublicKey, verify, X509Certificate } from "node:crypto";
import { errorText } from "@/i18n/error-text";
import { UnprocessableError, UpstreamError, ValidationError } from "@/server/domain/errors";
import { ecdsaSignatureDer, OID_ECDSA_WITH_SHA256, preparePadesSignature, type PadesOptions } from "@/server/pki/pades";
import type { TrustService } from "./connection";
import { authorizeCredential, type CscAuthData } from "./csc-credentials";
import { signHashes } from "./csc-signatures";
import type { LinkedCredential } from "./doctor-credential";
import { askTrustService } from "./failures";

/**
 * Signing with a doctor's linked credential at the organisation's trust service, for a batch of
 * PDFs at once: each PDF is prepared here (pades.ts: placeholder, byte range digest, signed
 * attributes), one credentials/authorize for all their hashes with the doctor's own factor (the
 * one-time password or PIN they typed for this signature: sole control, used once, never stored),
 * one signatures/signHash, then each value is checked against the doctor's certificate before it is
 * embedded (a signed copy is write-once: nothing that does not verify is kept).
 */
export type SigningAuthorisation = { otp?: string | null; pin?: string | null };

const FACTOR_MAX = 64;

/** authData for the factors the credential needs; a missing one is a field error naming it. */
export function authDataFor(factors: string[], authorisation: SigningAuthorisation | undefined): CscAuthData {
  const given = { OTP: authorisation?.otp?.trim() ?? "", PIN: authorisation?.pin?.trim() ?? "" };
  const fields: Record<string, ReturnType<typeof errorText>[]> = {};
  for (const factor of factors) {
    const value = given[factor as "OTP" | "PIN"];
    if (!value || value.length > FACTOR_MAX) fields[factor.toLowerCase()] = [errorText(factor === "PIN" ? "trustService.pinRequired" : "trustService.otpRequired")];
  }
  if (Object.keys(fields).length > 0) throw new ValidationError(fields);
  return factors.map((id) => ({ id, value: given[id as "OTP" | "PIN"] }));
}

export type RemoteSigner = {
  identity: { subject: string; issuer: string };
  signAll(pdfs: Buffer[], options: Pick<PadesOptions, "signingTime" | "reason">): Promise<Buffer[]>;
};

export function remoteSigner(service: TrustService, credential: LinkedCredential, authorisation: SigningAuthorisation | undefined): RemoteSigner {
  const keyAlgorithm = credential.signAlgorithm === OID_ECDSA_WITH_SHA256 ? "ecdsa" : "rsa";
  return {
    identity: { subject: credential.subjectName, issuer: credential.issuerName },
    async signAll(pdfs, options) {
      if (pdfs.length === 0) return [];
      const authData = authDataFor(credential.authFactors, authorisation);
      if (credential.validTo.getTime() < Date.now()) throw new UnprocessableError(errorText("trustService.certificateExpired"));
      if (pdfs.length > credential.multisign) throw new UnprocessableError(errorText("trustService.tooMany", { count: pdfs.length, max: credential.multisign }));
      const requests = await Promise.all(
        pdfs.map((pdf) => preparePadesSignature(pdf, { certificates: credential.certificates, keyAlgorithm }, { ...options, name: credential.subjectName })),
      );
      const hashes = requests.map((r) => r.digest);
      const { sad } = await askTrustService(() =>
        authorizeCredential(service.connection, { credentialId: credential.credentialId, hashes, authData, description: options.reason }),
      );
      const values = await askTrustService(() => signHashes(service.connection, { credentialId: credential.credentialId, sad, hashes, signAlgorithm: credential.signAlgorithm }));
      const key = createPublicKey(new X509Certificate(credential.certificates[0]).publicKey.export({ type: "spki", format: "pem" }));
      return requests.map((request, i) => {
        const value = verifiedValue(values[i], keyAlgorithm, (v) => verify("sha256", request.signedAttributes, key, v));
        if (!value) throw new UpstreamError(errorText("trustService.badSignature"), false, "trust_service");
        return request.embed(value);
      });
    },
  };
}

/** The value as CMS carries it when it verifies with the doctor's key; null for anything else. */
function verifiedValue(value: Buffer, keyAlgorithm: "rsa" | "ecdsa", verifies: (value: Buffer) => boolean): Buffer | null {
  try {
    const der = keyAlgorithm === "ecdsa" ? ecdsaSignatureDer(value) : value;
    return verifies(der) ? der : null;
  } catch {
    return null;
  }
}
