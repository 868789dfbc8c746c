/**
 * poppler's pdfsig as an independent check of a signed PDF (Debian's poppler-utils; the throwaway
 * NSS database of the trusted CA is made with certutil from libnss3-tools): what it says of the
 * first signature — the signer's common name, whether the signature value is valid, whether the
 * certificate chains to the CA given.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export type PdfsigVerdict = { signerCommonName: string | null; signatureValid: boolean; certificateTrusted: boolean; output: string };

export function pdfsig(pdf: Buffer, trustedCaPem: string): PdfsigVerdict {
  const dir = mkdtempSync(path.join(os.tmpdir(), "rx-pdfsig-"));
  try {
    const nss = path.join(dir, "nss");
    execFileSync("mkdir", [nss]);
    execFileSync("certutil", ["-N", "-d", `sql:${nss}`, "--empty-password"]);
    writeFileSync(path.join(dir, "ca.pem"), trustedCaPem);
    execFileSync("certutil", ["-A", "-d", `sql:${nss}`, "-n", "test-ca", "-t", "C,C,C", "-i", path.join(dir, "ca.pem")]);
    writeFileSync(path.join(dir, "signed.pdf"), pdf);
    let output: string;
    try {
      output = execFileSync("pdfsig", ["-nssdir", `sql:${nss}`, path.join(dir, "signed.pdf")], { encoding: "utf8" });
    } catch (error) {
      // pdfsig exits non-zero for an invalid signature; its report is still on stdout.
      output = String((error as { stdout?: string }).stdout ?? "");
    }
    return {
      signerCommonName: /Signer Certificate Common Name: (.+)/.exec(output)?.[1]?.trim() ?? null,
      signatureValid: /Signature Validation: Signature is Valid\./.test(output),
      certificateTrusted: /Certificate Validation: Certificate is Trusted\./.test(output),
      output,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
