import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config } from "@/server/config";
import { createRootCa, issuePassSignerCertificate } from "./certificates";
import { createStagedDirectory } from "./staged-directory";

/**
 * The certificates that sign Apple Wallet passes (and authenticate the APNs connection): configured
 * (WALLET_SIGNER_CERT, WALLET_SIGNER_KEY, WALLET_WWDR_CERT: Apple's), or else the sandbox's own
 * chain, created once under DATA_DIR/wallet/ like the QES sandbox signer (sandbox-ca.ts): a
 * self-made "WWDR" CA and a pass signer issued by it. Nothing outside the sandbox trusts it.
 *
 *   wallet/wwdr.pem          the sandbox WWDR CA certificate (public)
 *   wallet/wwdr-key.pem      its private key (0600)
 *   wallet/signer.pem        the pass signer certificate
 *   wallet/signer-key.pem    its private key (0600)
 */
export type PassSigner = {
  signerCertPem: string;
  signerKeyPem: string;
  signerKeyPassphrase?: string;
  wwdrPem: string;
  passTypeIdentifier: string;
  teamIdentifier: string;
  /** The sandbox chain: Apple devices and APNs will not accept it. */
  sandbox: boolean;
};

/** A PEM setting: the text itself (literal "\n" allowed, as in .env files) or the path of a file. */
function pemSetting(name: string, value: string): string {
  if (value.includes("-----BEGIN")) return value.replace(/\\n/g, "\n");
  try {
    return readFileSync(path.resolve(value), "utf8");
  } catch (error) {
    throw new Error(`${name}: cannot read the PEM file ${value} (${(error as Error).message}).`);
  }
}

const pending = new Map<string, Promise<PassSigner>>();

export function passSigner(): Promise<PassSigner> {
  const c = config();
  const identity = { passTypeIdentifier: c.WALLET_PASS_TYPE_IDENTIFIER, teamIdentifier: c.WALLET_TEAM_IDENTIFIER };
  if (c.WALLET_SIGNER_CERT && c.WALLET_SIGNER_KEY && c.WALLET_WWDR_CERT) {
    return Promise.resolve({
      signerCertPem: pemSetting("WALLET_SIGNER_CERT", c.WALLET_SIGNER_CERT),
      signerKeyPem: pemSetting("WALLET_SIGNER_KEY", c.WALLET_SIGNER_KEY),
      signerKeyPassphrase: c.WALLET_SIGNER_KEY_PASSPHRASE,
      wwdrPem: pemSetting("WALLET_WWDR_CERT", c.WALLET_WWDR_CERT),
      ...identity,
      sandbox: false,
    });
  }
  const dir = path.resolve(/*turbopackIgnore: true*/ c.DATA_DIR, "wallet");
  const key = `${dir}\n${identity.passTypeIdentifier}`;
  let result = pending.get(key);
  if (!result) {
    result = sandboxPassSigner(dir, identity.passTypeIdentifier).then(
      (files) => ({ ...files, ...identity, sandbox: true }),
      (error) => {
        pending.delete(key);
        throw error;
      },
    );
    pending.set(key, result);
  }
  return result;
}

const files = (dir: string) => ({
  wwdr: path.join(/*turbopackIgnore: true*/ dir, "wwdr.pem"),
  wwdrKey: path.join(/*turbopackIgnore: true*/ dir, "wwdr-key.pem"),
  signer: path.join(/*turbopackIgnore: true*/ dir, "signer.pem"),
  signerKey: path.join(/*turbopackIgnore: true*/ dir, "signer-key.pem"),
});

async function sandboxPassSigner(dir: string, passTypeIdentifier: string) {
  const f = files(dir);
  if (!existsSync(f.signerKey)) await createSandboxChain(dir, passTypeIdentifier);
  return { signerCertPem: readFileSync(f.signer, "utf8"), signerKeyPem: readFileSync(f.signerKey, "utf8"), wwdrPem: readFileSync(f.wwdr, "utf8") };
}

/** The sandbox "WWDR" CA and pass signer, created whole (createStagedDirectory). */
async function createSandboxChain(dir: string, passTypeIdentifier: string): Promise<void> {
  await createStagedDirectory(
    dir,
    async (staging) => {
      const organisation = "Rx Sandbox (not Apple)";
      const wwdr = await createRootCa({ commonName: "Rx Sandbox Wallet WWDR CA", organisation, years: 10 });
      const signer = await issuePassSignerCertificate({ passTypeIdentifier, organisation, issuer: wwdr });
      const f = files(staging);
      writeFileSync(f.wwdr, wwdr.certificatePem, { mode: 0o644 });
      writeFileSync(f.wwdrKey, wwdr.privateKeyPem, { mode: 0o600 });
      writeFileSync(f.signer, signer.certificatePem, { mode: 0o644 });
      writeFileSync(f.signerKey, signer.privateKeyPem, { mode: 0o600 });
    },
    (target) => existsSync(files(target).signerKey),
  );
}
