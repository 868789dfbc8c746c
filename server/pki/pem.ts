import * as pkijs from "pkijs";

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]*?)-----END CERTIFICATE-----/g;

/** The DER bytes of every `CERTIFICATE` block of a PEM text (a bundle may hold several). */
export function pemCertificateBlocks(text: string): Buffer<ArrayBuffer>[] {
  return [...text.matchAll(PEM_CERTIFICATE)].map((m) => Buffer.from(m[1].replace(/\s+/g, ""), "base64"));
}

export function derToPem(der: Uint8Array): string {
  const base64 = Buffer.from(der).toString("base64").replace(/(.{64})/g, "$1\n").trim();
  return `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----\n`;
}

/** Parses one DER certificate; throws an Error with a readable message when it is not one. */
export function parseCertificate(der: Uint8Array<ArrayBuffer>): pkijs.Certificate {
  try {
    return pkijs.Certificate.fromBER(der);
  } catch {
    throw new Error("not an X.509 certificate");
  }
}

const NAME_TYPES: Record<string, string> = {
  "2.5.4.3": "CN",
  "2.5.4.4": "SN",
  "2.5.4.5": "serialNumber",
  "2.5.4.6": "C",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
  "2.5.4.12": "T",
  "2.5.4.42": "GN",
  "2.5.4.97": "organizationIdentifier",
  "1.2.840.113549.1.9.1": "E",
};

function attributeText(value: unknown): string {
  const block = (value as { valueBlock?: { value?: unknown } } | undefined)?.valueBlock;
  return typeof block?.value === "string" ? block.value : "";
}

/** The value of the first attribute of a type in a name (e.g. 2.5.4.3, the common name), or null. */
export function nameAttribute(name: pkijs.RelativeDistinguishedNames, type: string): string | null {
  const found = name.typesAndValues.find((t) => t.type === type);
  return found ? attributeText(found.value) : null;
}

/** A name as "CN=…, O=…, C=…" (RFC 4514 escaping, in the certificate's order). */
export function formatName(name: pkijs.RelativeDistinguishedNames): string {
  return name.typesAndValues
    .map((t) => `${NAME_TYPES[t.type] ?? t.type}=${attributeText(t.value).replace(/([,+"\\<>;])/g, "\\$1")}`)
    .join(", ");
}
