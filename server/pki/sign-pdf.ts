import { createPrivateKey, createPublicKey, sign, type KeyObject } from "node:crypto";
import forge from "node-forge";
import { preparePadesSignature, type PadesOptions } from "./pades";

export type SignPdfOptions = Partial<Pick<PadesOptions, "signingTime" | "reason" | "location" | "name" | "signatureLength">>;

export type Pkcs12Signer = {
  key: KeyObject;
  /** DER: the certificate of the key first, then the bundle's other certificates. */
  certificates: Buffer[];
  commonName: string | null;
};

/**
 * Opens a PKCS#12 bundle (node-forge): its private key, the certificate of that key and every other
 * certificate of the bundle (its chain). Throws when the password does not open it or it holds no
 * key with its certificate.
 */
export function openPkcs12(p12: Buffer, password: string): Pkcs12Signer {
  const bundle = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(p12.toString("binary"))), password);
  const keyBags = [
    ...(bundle.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ?? []),
    ...(bundle.getBags({ bagType: forge.pki.oids.keyBag })[forge.pki.oids.keyBag] ?? []),
  ];
  const forgeKey = keyBags.find((bag) => bag.key)?.key;
  if (!forgeKey) throw new Error("The PKCS#12 bundle holds no private key.");
  const key = createPrivateKey(forge.pki.privateKeyToPem(forgeKey));
  const publicDer = createPublicKey(key).export({ type: "spki", format: "der" });
  const certificates = (bundle.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? [])
    .map((bag) => bag.cert)
    .filter((c): c is forge.pki.Certificate => Boolean(c));
  const der = (c: forge.pki.Certificate) => Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(c)).getBytes(), "binary");
  const spkiOf = (c: forge.pki.Certificate) => Buffer.from(forge.asn1.toDer(forge.pki.publicKeyToAsn1(c.publicKey)).getBytes(), "binary");
  const own = certificates.find((c) => spkiOf(c).equals(publicDer));
  if (!own) throw new Error("The PKCS#12 bundle holds no certificate of its private key.");
  return {
    key,
    certificates: [der(own), ...certificates.filter((c) => c !== own).map(der)],
    commonName: (own.subject.getField("CN")?.value as string | undefined) ?? null,
  };
}

/**
 * Signs a PDF with the key and certificates of a PKCS#12 bundle (the sandbox's signers, tests and
 * `npm run sign-pdf`), through the one CMS builder (pades.ts): a signature field on the first page
 * and a detached CMS signature (adbe.pkcs7.detached, SHA-256, RSA) with the contentType,
 * signingTime, messageDigest and signingCertificateV2 signed attributes and every certificate of the
 * bundle, so a validator can build the chain to its trust anchor.
 */
export async function signPdfWithP12(pdf: Buffer, p12: Buffer, password: string, options: SignPdfOptions = {}): Promise<Buffer> {
  return signPdfWithKey(pdf, openPkcs12(p12, password), options);
}

export async function signPdfWithKey(pdf: Buffer, signer: Pkcs12Signer, options: SignPdfOptions = {}): Promise<Buffer> {
  const ecdsa = signer.key.asymmetricKeyType === "ec";
  const request = await preparePadesSignature(
    pdf,
    { certificates: signer.certificates, keyAlgorithm: ecdsa ? "ecdsa" : "rsa" },
    { signingTime: options.signingTime ?? new Date(), reason: options.reason ?? "Prescription", location: options.location, name: options.name, signatureLength: options.signatureLength },
  );
  // RSA PKCS#1 v1.5 over SHA-256 (ECDSA: DER-encoded), as a trust service's signHash makes it.
  return request.embed(sign("sha256", request.signedAttributes, signer.key));
}
