import { readFileSync } from "node:fs";
import path from "node:path";
import { config } from "@/server/config";
import { derToPem, parseCertificate, pemCertificateBlocks } from "@/server/pki/pem";

/**
 * The certificate authorities whose qualified signatures order intake accepts: the PEM bundle of
 * QES_TRUST_ANCHORS (the PEM text itself, or the path of a PEM file), read once; plus, for sandbox
 * organisations only, the sandbox CA of DATA_DIR/qes (sandbox-ca.ts).
 */

let cache: { source: string | undefined; anchors: string[] } | undefined;

/** The configured anchors as PEM certificates; throws a readable error for an unusable setting. */
export function configuredTrustAnchors(): string[] {
  const source = config().QES_TRUST_ANCHORS;
  if (!cache || cache.source !== source) cache = { source, anchors: source ? parseTrustAnchors(source) : [] };
  return cache.anchors;
}

export function parseTrustAnchors(source: string): string[] {
  const inline = source.includes("-----BEGIN");
  let text = source.replace(/\\n/g, "\n");
  if (!inline) {
    try {
      text = readFileSync(path.resolve(source), "utf8");
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
      throw new Error(`QES_TRUST_ANCHORS: cannot read the PEM file ${source} (${reason}).`);
    }
  }
  const blocks = pemCertificateBlocks(text);
  if (blocks.length === 0) {
    throw new Error(`QES_TRUST_ANCHORS: no "-----BEGIN CERTIFICATE-----" block found in ${inline ? "the value" : source}.`);
  }
  return blocks.map((der, index) => {
    try {
      parseCertificate(der);
    } catch {
      throw new Error(`QES_TRUST_ANCHORS: certificate ${index + 1} of ${blocks.length} is not a valid X.509 certificate.`);
    }
    return derToPem(der);
  });
}

/** The trust anchors for an organisation's signed prescriptions. */
export async function trustAnchorsFor(organisation: { sandbox: boolean }): Promise<string[]> {
  const anchors = configuredTrustAnchors();
  if (!organisation.sandbox) return anchors;
  const { ensureSandboxQes } = await import("@/server/pki/sandbox-ca");
  const sandbox = await ensureSandboxQes(path.resolve(config().DATA_DIR));
  return [...anchors, sandbox.caCertPem];
}
