/**
 * A stand-in for a qualified trust service's CSC API v2, for tests only (no test reaches a real
 * trust service). It answers as the Cloud Signature Consortium API v2 specifies (field names as in
 * server/domain/trust-service/csc-*.ts, which cite the specification's sections):
 *
 *   POST {base}oauth2/token            client credentials (form body or HTTP Basic) → {access_token, token_type, expires_in}
 *   POST {base}credentials/list        {userID, credentialInfo, certificates, certInfo, authInfo} → {credentialIDs, credentialInfos}
 *   POST {base}credentials/info        {credentialID, certificates, certInfo, authInfo} → {key, cert, auth, multisign, …}
 *   POST {base}credentials/authorize   {credentialID, numSignatures, hashes, hashAlgorithmOID, authData} → {SAD, expiresIn}
 *   POST {base}signatures/signHash     {credentialID, SAD, hashes, hashAlgorithmOID, signAlgo} → {signatures}
 *
 * Errors are {error, error_description} with the specification's codes (invalid_client,
 * invalid_token, invalid_request, invalid_otp, invalid_pin). Each credential is a doctor's: a
 * qualified test certificate (QcCompliance, server/pki/certificates.ts) issued by the stand-in's own
 * test CA (`caPem`, for QES_TRUST_ANCHORS), its RSA key held here only. Sole control as a real
 * service enforces it: a one-time password is made for one authorize attempt (`issueOtp`, what an
 * SMS would bring; a test reads it from here) and is gone after that attempt, right or wrong; a
 * SAD is bound to its credential and to the hashes it was authorised for, and allows numSignatures
 * signatures, then it is used up. It records every request (the secrets in them too: a test's own).
 * Importable without the app (node only): the Playwright spec runs it in its own process.
 */
import { createHash, createPrivateKey, privateEncrypt, randomBytes, randomInt, constants } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import forge from "node-forge";
import { createRootCa, issueSignerCertificate, type IssuedCertificate, type PersonName } from "../server/pki/certificates";

export type StandInCredentialOptions = {
  /** The doctor's user id at the trust service (credentials/list). */
  userId: string;
  commonName: string;
  person?: PersonName;
  /** With QcCompliance (default true). */
  qualified?: boolean;
  notBefore?: Date;
  notAfter?: Date;
  /** How the signer authorises (default OTP). */
  factor?: "OTP" | "PIN";
  pin?: string;
  /** Signatures one authorisation allows (default 10). */
  multisign?: number;
  keyStatus?: "enabled" | "disabled";
  authMode?: "explicit" | "oauth2code";
};

type Credential = {
  id: string;
  options: Required<Pick<StandInCredentialOptions, "userId" | "factor" | "multisign" | "keyStatus" | "authMode">> & StandInCredentialOptions;
  certificate: IssuedCertificate;
  /** The one-time password of the next authorize attempt, if one was issued. */
  otp: string | null;
};

type Sad = { credentialId: string; hashes: Set<string>; remaining: number; expires: number };

/** `ms`: how long the stand-in took to answer it (its own work: signing, checking), for the bench. */
export type RecordedCscRequest = { path: string; headers: http.IncomingHttpHeaders; body: unknown; ms?: number };
/** What the next request gets instead of its answer: a status, no answer within the client's timeout, or a closed connection. */
export type CscMisbehaviour = 500 | 503 | "hang" | "drop" | "garbage";

const OID_SHA256 = "2.16.840.1.101.3.4.2.1";
const OID_RSA = "1.2.840.113549.1.1.1";
const OID_SHA256_RSA = "1.2.840.113549.1.1.11";
/** DigestInfo of SHA-256 before the hash (RFC 8017 §9.2, note 1). */
const SHA256_DIGEST_INFO = Buffer.from("3031300d060960864801650304020105000420", "hex");

const b64 = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, "");
/** CSC gives certificate times as GeneralizedTime text (YYYYMMDDHHMMSSZ). */
const generalizedTime = (d: Date) => `${d.toISOString().replace(/[-:T]/g, "").slice(0, 14)}Z`;

export async function startCscStandIn(options: { clientId?: string; clientSecret?: string; name?: string } = {}) {
  const clientId = options.clientId ?? "rx-platform";
  const clientSecret = options.clientSecret ?? `secret-${randomBytes(12).toString("hex")}`;
  const ca = await createRootCa({ commonName: `${options.name ?? "Stand-in QTSP"} Test CA`, organisation: options.name ?? "Stand-in QTSP (test only)" });
  const credentials = new Map<string, Credential>();
  const tokens = new Set<string>();
  const sads = new Map<string, Sad>();
  const requests: RecordedCscRequest[] = [];
  const misbehaviours: CscMisbehaviour[] = [];
  let counter = 0;

  const info = (c: Credential, chain: boolean) => {
    const cert = forge.pki.certificateFromPem(c.certificate.certificatePem);
    return {
      description: `Qualified signature of ${c.options.commonName}`,
      signatureQualifier: "eu_eidas_qes",
      key: { status: c.options.keyStatus, algo: [OID_RSA, OID_SHA256_RSA], len: 2048 },
      cert: {
        status: c.certificate.notAfter < new Date() ? "expired" : "valid",
        certificates: chain ? [b64(c.certificate.certificatePem), b64(ca.certificatePem)] : [b64(c.certificate.certificatePem)],
        issuerDN: cert.issuer.attributes.map((a) => `${a.shortName}=${a.value}`).join(", "),
        serialNumber: cert.serialNumber,
        subjectDN: cert.subject.attributes.map((a) => `${a.shortName ?? a.name}=${a.value}`).join(", "),
        validFrom: generalizedTime(c.certificate.notBefore),
        validTo: generalizedTime(c.certificate.notAfter),
      },
      auth:
        c.options.authMode === "oauth2code"
          ? { mode: "oauth2code" }
          : {
              mode: "explicit",
              objects: [
                c.options.factor === "OTP"
                  ? { type: "Password", id: "OTP", format: "N", label: "One-time password", generator: "sms" }
                  : { type: "Password", id: "PIN", format: "N", label: "PIN" },
              ],
            },
      SCAL: "2",
      multisign: c.options.multisign,
      lang: "en-US",
    };
  };

  const answer = (path: string, body: Record<string, unknown>, headers: http.IncomingHttpHeaders): { status: number; json: unknown } => {
    const refuse = (status: number, error: string, description: string) => ({ status, json: { error, error_description: description } });
    if (path === "oauth2/token") {
      const basic = /^Basic (.+)$/i.exec(headers.authorization ?? "");
      const [id, secret] = basic ? Buffer.from(basic[1], "base64").toString("utf8").split(":") : [body.client_id, body.client_secret];
      if (body.grant_type !== "client_credentials") return refuse(400, "unsupported_grant_type", "The grant type is not supported.");
      if (id !== clientId || secret !== clientSecret) return refuse(401, "invalid_client", "Client authentication failed.");
      const token = randomBytes(24).toString("base64url");
      tokens.add(token);
      return { status: 200, json: { access_token: token, token_type: "Bearer", expires_in: 3600 } };
    }
    const bearer = /^Bearer (.+)$/i.exec(headers.authorization ?? "")?.[1];
    if (!bearer || !tokens.has(bearer)) return refuse(401, "invalid_token", "The access token is not valid.");

    if (path === "credentials/list") {
      if (typeof body.userID !== "string") return refuse(400, "invalid_request", "Missing (or invalid type) string parameter userID");
      const own = [...credentials.values()].filter((c) => c.options.userId === body.userID);
      return {
        status: 200,
        json: {
          credentialIDs: own.map((c) => c.id),
          ...(body.credentialInfo === true ? { credentialInfos: own.map((c) => ({ credentialID: c.id, ...info(c, body.certificates === "chain") })) } : {}),
        },
      };
    }
    const credential = typeof body.credentialID === "string" ? credentials.get(body.credentialID) : undefined;
    if (typeof body.credentialID !== "string") return refuse(400, "invalid_request", "Missing (or invalid type) string parameter credentialID");
    if (!credential) return refuse(400, "invalid_request", "Invalid parameter credentialID");

    if (path === "credentials/info") return { status: 200, json: info(credential, body.certificates === "chain") };

    if (path === "credentials/authorize") {
      const num = body.numSignatures;
      if (!Number.isInteger(num) || (num as number) < 1) return refuse(400, "invalid_request", "Missing (or invalid type) integer parameter numSignatures");
      if ((num as number) > credential.options.multisign) return refuse(400, "invalid_request", "Numbers of signatures is too high");
      const hashes = Array.isArray(body.hashes) ? (body.hashes as unknown[]) : null;
      if (hashes && (hashes.length !== num || !hashes.every((h) => typeof h === "string"))) return refuse(400, "invalid_request", "Invalid parameter hashes");
      if (hashes && body.hashAlgorithmOID !== OID_SHA256) return refuse(400, "invalid_request", "Invalid parameter hashAlgorithmOID");
      const authData = Array.isArray(body.authData) ? (body.authData as { id?: unknown; value?: unknown }[]) : [];
      const given = authData.find((a) => a.id === credential.options.factor)?.value;
      if (credential.options.factor === "OTP") {
        const expected = credential.otp;
        // One attempt per one-time password: it is gone whatever was typed.
        credential.otp = null;
        if (typeof given !== "string") return refuse(400, "invalid_request", "Missing (or invalid type) string parameter OTP");
        if (!expected || given !== expected) return refuse(400, "invalid_otp", "The OTP is invalid");
      } else {
        if (typeof given !== "string") return refuse(400, "invalid_request", "Missing (or invalid type) string parameter PIN");
        if (given !== credential.options.pin) return refuse(400, "invalid_pin", "The PIN is invalid");
      }
      const sad = randomBytes(24).toString("base64url");
      sads.set(sad, { credentialId: credential.id, hashes: new Set((hashes ?? []) as string[]), remaining: num as number, expires: Date.now() + 300_000 });
      return { status: 200, json: { SAD: sad, expiresIn: 300 } };
    }

    if (path === "signatures/signHash") {
      const sad = typeof body.SAD === "string" ? sads.get(body.SAD) : undefined;
      if (!sad || sad.expires < Date.now() || sad.credentialId !== credential.id) return refuse(400, "invalid_request", "Invalid parameter SAD");
      const hashes = Array.isArray(body.hashes) ? (body.hashes as unknown[]) : [];
      if (hashes.length === 0 || !hashes.every((h) => typeof h === "string")) return refuse(400, "invalid_request", "Missing (or invalid type) array parameter hashes");
      if (body.hashAlgorithmOID !== OID_SHA256) return refuse(400, "invalid_request", "Invalid parameter hashAlgorithmOID");
      if (body.signAlgo !== OID_SHA256_RSA && body.signAlgo !== OID_RSA) return refuse(400, "invalid_request", "Invalid parameter signAlgo");
      if (hashes.length > sad.remaining) return refuse(400, "invalid_request", "Numbers of signatures is too high");
      if (sad.hashes.size > 0 && !(hashes as string[]).every((h) => sad.hashes.has(h))) return refuse(400, "invalid_request", "Invalid parameter hashes: not the hashes the SAD authorises");
      sad.remaining -= hashes.length;
      if (sad.remaining === 0) sads.delete(body.SAD as string);
      const key = createPrivateKey(credential.certificate.privateKeyPem);
      const signatures = (hashes as string[]).map((h) =>
        privateEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.concat([SHA256_DIGEST_INFO, Buffer.from(h, "base64")])).toString("base64"),
      );
      return { status: 200, json: { signatures } };
    }
    return { status: 404, json: { error: "invalid_request", error_description: `Unknown method ${path}` } };
  };

  const server = http.createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (raw += chunk));
    req.on("end", () => {
      const path = (req.url ?? "/").replace(/^\/csc\/v2\//, "").replace(/\?.*$/, "");
      let body: Record<string, unknown> = {};
      try {
        body = (req.headers["content-type"] ?? "").includes("application/x-www-form-urlencoded")
          ? Object.fromEntries(new URLSearchParams(raw))
          : (JSON.parse(raw || "{}") as Record<string, unknown>);
      } catch {
        body = {};
      }
      const record: RecordedCscRequest = { path, headers: req.headers, body };
      requests.push(record);
      const started = performance.now();
      const misbehaviour = misbehaviours.shift();
      if (misbehaviour === "hang") return; // never answers: the client's timeout decides
      if (misbehaviour === "drop") return void req.socket.destroy();
      if (misbehaviour === "garbage") {
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end('{"unexpected": true}');
      }
      const { status, json } = misbehaviour ? { status: misbehaviour, json: { error: "server_error", error_description: "The service is temporarily unavailable." } } : answer(path, body, req.headers);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(json));
      record.ms = performance.now() - started;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl: `${origin}/csc/v2/`,
    clientId,
    clientSecret,
    /** The test CA that issued every credential's certificate (trust it as a QES anchor). */
    caPem: ca.certificatePem,
    requests,
    /** A doctor's credential: a new key and qualified certificate; returns its credentialID. */
    async addCredential(credential: StandInCredentialOptions): Promise<string> {
      const id = `cred-${++counter}-${randomBytes(6).toString("hex")}`;
      const certificate = await issueSignerCertificate({
        commonName: credential.commonName,
        person: credential.person,
        issuer: ca,
        qualified: credential.qualified,
        notBefore: credential.notBefore,
        notAfter: credential.notAfter,
      });
      credentials.set(id, {
        id,
        options: { factor: "OTP", multisign: 10, keyStatus: "enabled", authMode: "explicit", ...credential },
        certificate,
        otp: null,
      });
      return id;
    },
    /** The one-time password for the next authorize attempt of a credential (what the signer's phone would show). */
    issueOtp(credentialId: string): string {
      const credential = credentials.get(credentialId);
      if (!credential) throw new Error(`no such credential ${credentialId}`);
      credential.otp = String(randomInt(0, 1_000_000)).padStart(6, "0");
      return credential.otp;
    },
    /** The certificate of a credential (PEM), to compare with what was signed. */
    certificateOf: (credentialId: string) => credentials.get(credentialId)?.certificate.certificatePem ?? null,
    /** The SHA-256 of a credential's certificate, hex. */
    fingerprintOf: (credentialId: string) => {
      const pem = credentials.get(credentialId)?.certificate.certificatePem;
      return pem ? createHash("sha256").update(Buffer.from(b64(pem), "base64")).digest("hex") : null;
    },
    /** The next requests misbehave in this order. */
    misbehave: (...next: CscMisbehaviour[]) => misbehaviours.push(...next),
    /** Requests of one method ("credentials/authorize", …). */
    calls: (path: string) => requests.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type CscStandIn = Awaited<ReturnType<typeof startCscStandIn>>;
