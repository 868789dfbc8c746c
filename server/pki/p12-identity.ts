import forge from "node-forge";

/** Whose signature a PKCS#12 makes: its certificate's subject and the trust service that issued it. */
export type SignerIdentity = {
  /** The subject's common name (the signing person). */
  subject: string;
  /** The issuer's organisation (the trust service provider), else its common name. */
  issuer: string;
};

/** An attribute of a name as text: forge keeps the DER bytes (UTF8String as UTF-8, BMPString as UTF-16BE). */
const attribute = (name: forge.pki.Certificate["subject"], short: string): string | null => {
  const field = name.getField(short) as { value?: unknown; valueTagClass?: number } | null;
  if (typeof field?.value !== "string") return null;
  const bytes = Buffer.from(field.value, "binary");
  const text = field.valueTagClass === forge.asn1.Type.BMPSTRING ? bytes.swap16().toString("utf16le") : bytes.toString("utf8");
  return text.trim() || null;
};

/**
 * Reads the signer certificate of a PKCS#12 bundle: the one whose public key matches the bundle's
 * private key (as @signpdf/signer-p12 picks it when signing). Throws when the password does not
 * open the bundle or it holds no key with its certificate.
 */
export function p12SignerIdentity(p12: Buffer, password: string): SignerIdentity {
  const bundle = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(p12.toString("binary"))), false, password);
  const keyBags = [
    ...(bundle.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ?? []),
    ...(bundle.getBags({ bagType: forge.pki.oids.keyBag })[forge.pki.oids.keyBag] ?? []),
  ];
  const key = keyBags.find((bag) => bag.key)?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!key) throw new Error("The PKCS#12 bundle holds no private key.");
  const certificates = (bundle.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? []).flatMap((bag) => (bag.cert ? [bag.cert] : []));
  const certificate = certificates.find((c) => {
    const publicKey = c.publicKey as forge.pki.rsa.PublicKey;
    return publicKey.n?.compareTo(key.n) === 0 && publicKey.e?.compareTo(key.e) === 0;
  });
  if (!certificate) throw new Error("The PKCS#12 bundle holds no certificate for its private key.");
  const subject = attribute(certificate.subject, "CN") ?? attribute(certificate.subject, "O");
  const issuer = attribute(certificate.issuer, "O") ?? attribute(certificate.issuer, "CN");
  if (!subject || !issuer) throw new Error("The signer certificate names no subject or no issuer.");
  return { subject, issuer };
}
