import { errorText, type ErrorText } from "@/i18n/error-text";
import type { SigningCertificateFacts } from "@/server/pki/qualified-certificate";
import { OID_EC_PUBLIC_KEY, OID_ECDSA_WITH_SHA256, OID_RSA_ENCRYPTION, OID_SHA256_WITH_RSA } from "@/server/pki/pades";
import type { CscCredentialInfo } from "./csc-credentials";

/**
 * When a credential at the trust service may become a doctor's signing credential
 * (docs/decisions/prescriptions.md#remote-qualified-signatures): its certificate names that doctor, is valid now,
 * is an EU qualified certificate (QcCompliance) whose key usage allows signing, its key is enabled
 * and signs with an algorithm we assemble (RSA or ECDSA over SHA-256), and it is authorised with
 * factors the doctor types (PIN, one-time password), not by a redirect to the service's own page.
 */

/** Names compared after Unicode compatibility normalisation (NFKC), lower case, and one space for any run of white space. */
export function normalisedName(name: string): string {
  return name.normalize("NFKC").toLowerCase().replace(/\s+/gu, " ").trim();
}

/**
 * The names a certificate gives its subject: the common name, and given name with surname; each also
 * after the subject's title ("Dr. med."), which qualified certificates carry in its own attribute.
 */
export function namesOfSubject(facts: Pick<SigningCertificateFacts, "commonName" | "givenName" | "surname" | "title">): string[] {
  const plain = [facts.commonName, facts.givenName && facts.surname ? `${facts.givenName} ${facts.surname}` : null].filter((n): n is string => Boolean(n));
  return [...plain, ...(facts.title ? plain.map((n) => `${facts.title} ${n}`) : [])];
}

export function certificateNamesDoctor(facts: Parameters<typeof namesOfSubject>[0], displayName: string): boolean {
  const doctor = normalisedName(displayName);
  return namesOfSubject(facts).some((name) => normalisedName(name) === doctor);
}

/** The signAlgo signatures/signHash is called with: what the key offers (credentials/info key.algo) and its certificate's key is. */
export function signAlgorithmFor(keyAlgorithms: string[], certificateKey: SigningCertificateFacts["keyAlgorithm"]): string | null {
  const offers = new Set(keyAlgorithms);
  if (certificateKey === "rsa" && (offers.has(OID_SHA256_WITH_RSA) || offers.has(OID_RSA_ENCRYPTION))) return OID_SHA256_WITH_RSA;
  if (certificateKey === "ecdsa" && (offers.has(OID_ECDSA_WITH_SHA256) || offers.has(OID_EC_PUBLIC_KEY))) return OID_ECDSA_WITH_SHA256;
  return null;
}

/** The factors the doctor gives at each signature (auth object ids), or why this credential cannot be authorised here. */
export function authFactorsOf(auth: CscCredentialInfo["auth"]): { factors: string[] } | { refusal: ErrorText } {
  if (auth && auth.mode !== "explicit") return { refusal: errorText("trustService.link.authMode", { mode: auth.mode }) };
  const ids = (auth?.objects ?? []).map((o) => o.id.toUpperCase());
  const unknown = ids.filter((id) => id !== "PIN" && id !== "OTP");
  if (unknown.length > 0) return { refusal: errorText("trustService.link.authObjects", { ids: unknown.join(", ") }) };
  // Sole control: a signature the doctor does not activate with their own factor is not theirs.
  if (ids.length === 0) return { refusal: errorText("trustService.link.noFactor") };
  return { factors: [...new Set(ids)] };
}

export type CredentialJudgement = { ok: true; signAlgorithm: string; factors: string[] } | { ok: false; reasons: ErrorText[] };

/** Every reason a credential cannot be the doctor's, or what signing with it needs. */
export function judgeCredential(
  info: CscCredentialInfo,
  facts: SigningCertificateFacts,
  doctor: { displayName: string },
  now: Date,
): CredentialJudgement {
  const reasons: ErrorText[] = [];
  if (!certificateNamesDoctor(facts, doctor.displayName)) {
    reasons.push(errorText("trustService.link.notTheDoctor", { subject: namesOfSubject(facts)[0] ?? facts.subject, doctor: doctor.displayName }));
  }
  if (facts.validFrom > now || facts.validTo < now) {
    reasons.push(errorText("trustService.link.notValidNow", { from: facts.validFrom.toISOString().slice(0, 10), to: facts.validTo.toISOString().slice(0, 10) }));
  } else if (info.cert?.status && info.cert.status !== "valid") {
    reasons.push(errorText("trustService.link.certificateStatus", { status: info.cert.status }));
  }
  if (!facts.qcCompliance) reasons.push(errorText("trustService.link.notQualified"));
  if (!facts.signingKeyUsage) reasons.push(errorText("trustService.link.keyUsage"));
  if (info.key.status !== "enabled") reasons.push(errorText("trustService.link.keyDisabled"));
  const signAlgorithm = signAlgorithmFor(info.key.algo, facts.keyAlgorithm);
  if (!signAlgorithm) reasons.push(errorText("trustService.link.algorithm", { algorithms: info.key.algo.join(", ") || "—" }));
  const auth = authFactorsOf(info.auth);
  if ("refusal" in auth) reasons.push(auth.refusal);
  if (reasons.length > 0 || !signAlgorithm || "refusal" in auth) return { ok: false, reasons };
  return { ok: true, signAlgorithm, factors: auth.factors };
}
