import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createRootCa, issueSignerCertificate, toPkcs12, type IssuedCertificate } from "./certificates";
import { createStagedDirectory } from "./staged-directory";

/**
 * The sandbox's own "qualified" trust service: a root CA and a signer certificate with
 * qcStatements/QcCompliance, kept under DATA_DIR/qes/ and created once. Signatures made with the
 * signer validate for sandbox organisations only (trust-anchors.ts); nothing outside the sandbox
 * trusts this CA. The signer is re-issued by the same CA when it is about to expire.
 *
 *   qes/ca.pem          the CA certificate (public)
 *   qes/ca-key.pem      the CA's private key (0600)
 *   qes/signer.p12      the signer's key, certificate and the CA certificate, PKCS#12 (0600)
 *   qes/signer.json     the PKCS#12 password and the signer certificate's validity (0600)
 */

export type SandboxQes = {
  caCertPath: string;
  caCertPem: string;
  signerP12Path: string;
  signerP12Password: string;
};

const SANDBOX_CA_NAME = "Rx Sandbox QES Root CA";
export const SANDBOX_SIGNER_NAME = "Dr. Sandbox Signer";
const ORGANISATION = "Rx Sandbox (not a trust service provider)";
/** A signer certificate that expires sooner than this is replaced. */
const RENEW_BEFORE_MS = 7 * 24 * 3600_000;

type SignerFile = { p12_password: string; signer_common_name: string; signer_not_before: string; signer_not_after: string };

// Paths under DATA_DIR, known at run time only; turbopackIgnore keeps the bundler from tracing the whole tree.
const files = (dir: string) => ({
  caCert: path.join(/*turbopackIgnore: true*/ dir, "ca.pem"),
  caKey: path.join(/*turbopackIgnore: true*/ dir, "ca-key.pem"),
  signerP12: path.join(/*turbopackIgnore: true*/ dir, "signer.p12"),
  signerJson: path.join(/*turbopackIgnore: true*/ dir, "signer.json"),
});

const pending = new Map<string, Promise<SandboxQes>>();

/** Creates the sandbox CA and signer under dataDir/qes/ on first use; later calls return the same files. */
export function ensureSandboxQes(dataDir: string): Promise<SandboxQes> {
  const dir = path.resolve(/*turbopackIgnore: true*/ dataDir, "qes");
  let result = pending.get(dir);
  if (!result) {
    result = prepare(dir).catch((error) => {
      pending.delete(dir);
      throw error;
    });
    pending.set(dir, result);
  }
  return result;
}

function writeSecret(file: string, content: string | Buffer): void {
  writeFileSync(file, content, { mode: 0o600 });
  chmodSync(file, 0o600);
}

async function prepare(dir: string): Promise<SandboxQes> {
  const f = files(dir);
  if (!existsSync(f.caCert) || !existsSync(f.caKey) || !existsSync(f.signerP12) || !existsSync(f.signerJson)) {
    await createAll(dir);
  }
  const signer = JSON.parse(readFileSync(f.signerJson, "utf8")) as SignerFile;
  if (new Date(signer.signer_not_after).getTime() - Date.now() < RENEW_BEFORE_MS) await renewSigner(dir);
  const current = JSON.parse(readFileSync(f.signerJson, "utf8")) as SignerFile;
  return {
    caCertPath: f.caCert,
    caCertPem: readFileSync(f.caCert, "utf8"),
    signerP12Path: f.signerP12,
    signerP12Password: current.p12_password,
  };
}

/** The CA and its signer, created whole (createStagedDirectory). */
async function createAll(dir: string): Promise<void> {
  await createStagedDirectory(
    dir,
    async (staging) => {
      const ca = await createRootCa({ commonName: SANDBOX_CA_NAME, organisation: ORGANISATION, years: 10 });
      const f = files(staging);
      writeFileSync(f.caCert, ca.certificatePem, { mode: 0o644 });
      writeSecret(f.caKey, ca.privateKeyPem);
      await writeSigner(staging, ca);
    },
    (target) => existsSync(files(target).signerJson),
  );
}

async function writeSigner(dir: string, ca: Pick<IssuedCertificate, "certificatePem" | "privateKeyPem">): Promise<void> {
  const signer = await issueSignerCertificate({
    commonName: SANDBOX_SIGNER_NAME,
    organisation: ORGANISATION,
    issuer: ca,
    years: 2,
  });
  const password = randomBytes(18).toString("base64url");
  const f = files(dir);
  const p12 = toPkcs12(signer, [ca.certificatePem], password);
  const json: SignerFile = {
    p12_password: password,
    signer_common_name: signer.commonName,
    signer_not_before: signer.notBefore.toISOString(),
    signer_not_after: signer.notAfter.toISOString(),
  };
  // Each file is replaced by a rename, so neither is ever read half-written; the staging names are
  // the writer's own, so two processes renewing at once cannot mix one's key with the other's password.
  const tmp = `.${randomBytes(6).toString("hex")}.tmp`;
  writeSecret(`${f.signerP12}${tmp}`, p12);
  writeSecret(`${f.signerJson}${tmp}`, `${JSON.stringify(json, null, 2)}\n`);
  renameSync(`${f.signerP12}${tmp}`, f.signerP12);
  renameSync(`${f.signerJson}${tmp}`, f.signerJson);
}

async function renewSigner(dir: string): Promise<void> {
  const f = files(dir);
  await writeSigner(dir, { certificatePem: readFileSync(f.caCert, "utf8"), privateKeyPem: readFileSync(f.caKey, "utf8") });
}

export type SandboxPersonalSigner = { p12: Buffer; password: string; commonName: string };

type PersonalSignerFile = { p12_base64: string; p12_password: string; common_name: string; not_after: string };

const pendingPersonal = new Map<string, Promise<SandboxPersonalSigner>>();

/**
 * A signer certificate of one person (a sandbox doctor), issued by the sandbox CA with their name,
 * kept (PKCS#12 and its password) in dataDir/qes/signers/<key>.json (0600) and created on first use;
 * re-issued when the name changes or the certificate is about to expire. `key` names the file: a uid.
 */
export function ensureSandboxPersonalSigner(dataDir: string, key: string, commonName: string): Promise<SandboxPersonalSigner> {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(key)) return Promise.reject(new Error(`Not a usable signer key: ${JSON.stringify(key)}`));
  const id = `${path.resolve(/*turbopackIgnore: true*/ dataDir)}\n${key}\n${commonName}`;
  let result = pendingPersonal.get(id);
  if (!result) {
    result = preparePersonal(dataDir, key, commonName).finally(() => pendingPersonal.delete(id));
    pendingPersonal.set(id, result);
  }
  return result;
}

async function preparePersonal(dataDir: string, key: string, commonName: string): Promise<SandboxPersonalSigner> {
  await ensureSandboxQes(dataDir);
  const qes = path.resolve(/*turbopackIgnore: true*/ dataDir, "qes");
  const dir = path.join(/*turbopackIgnore: true*/ qes, "signers");
  const file = path.join(/*turbopackIgnore: true*/ dir, `${key}.json`);
  const current = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as PersonalSignerFile) : null;
  if (current && current.common_name === commonName && new Date(current.not_after).getTime() - Date.now() >= RENEW_BEFORE_MS) {
    return { p12: Buffer.from(current.p12_base64, "base64"), password: current.p12_password, commonName };
  }
  const f = files(qes);
  const ca = { certificatePem: readFileSync(f.caCert, "utf8"), privateKeyPem: readFileSync(f.caKey, "utf8") };
  const signer = await issueSignerCertificate({ commonName, organisation: ORGANISATION, issuer: ca, years: 2 });
  const password = randomBytes(18).toString("base64url");
  const p12 = toPkcs12(signer, [ca.certificatePem], password);
  const json: PersonalSignerFile = { p12_base64: p12.toString("base64"), p12_password: password, common_name: commonName, not_after: signer.notAfter.toISOString() };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // One file, written beside and renamed: a concurrent reader sees the old signer or the new one, whole.
  const staging = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  writeSecret(staging, `${JSON.stringify(json)}\n`);
  renameSync(staging, file);
  return { p12, password, commonName };
}
