/**
 * The CSC API v2 client against the stand-in trust service (tests/csc-stand-in.ts, answering as the
 * specification says): service authorization with the organisation's client, credentials/list and
 * /info, authorize with the signer's one-time password (wrong, reused, too many signatures) and
 * signHash (only the authorised hashes, the SAD used up), and how every failure reaches the caller:
 * a refusal as a 422 in words, an unavailable or garbled service as a 503/502, never a 500.
 */
import { createPublicKey, createHash, verify, X509Certificate } from "node:crypto";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UnprocessableError, UpstreamError } from "@/server/domain/errors";
import { startCscStandIn, type CscStandIn } from "@/tests/csc-stand-in";
import { useEnv } from "@/tests/wait";
import { authorizeCredential, credentialInfoOf, listCredentials } from "./csc-credentials";
import { signHashes } from "./csc-signatures";
import { requestAccessToken, type CscConnection } from "./csc-token";
import { askTrustService } from "./failures";

useEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });

let standIn: CscStandIn;
let connection: CscConnection;
let credentialId: string;
const sha = (text: string) => createHash("sha256").update(text).digest();
const OTP = (value: string) => [{ id: "OTP", value }];

beforeAll(async () => {
  standIn = await startCscStandIn();
  connection = { baseUrl: standIn.baseUrl, tokenUrl: null, clientId: standIn.clientId, clientSecret: standIn.clientSecret };
  credentialId = await standIn.addCredential({ userId: "weber", commonName: "Dr. Anna Weber", multisign: 3 });
});
afterAll(() => standIn.close());

/** The domain error a call of the trust service becomes (askTrustService), for assertions. */
const failureOf = (call: () => Promise<unknown>) => askTrustService(call).then(() => expect.unreachable("expected a failure"), (e: unknown) => e);

describe("service authorization (oauth2/token, client credentials)", () => {
  it("gets a Bearer token with the organisation's client, sent as a form", async () => {
    const token = await requestAccessToken(connection);
    expect(token.expiresInSeconds).toBe(3600);
    const request = standIn.calls("oauth2/token").at(-1)!;
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(request.body).toEqual({ grant_type: "client_credentials", client_id: standIn.clientId, client_secret: standIn.clientSecret });
  });

  it("a wrong client secret is a 422 naming the client, not a 500", async () => {
    const error = await failureOf(() => listCredentials({ ...connection, clientSecret: "wrong" }, "weber"));
    expect(error).toBeInstanceOf(UnprocessableError);
    expect((error as Error).message).toMatch(/^The trust service refused the organisation's client id or client secret \(Client authentication failed\.\)/);
  });
});

describe("credentials/list and credentials/info", () => {
  it("lists a user's credentials with their certificate, and reads one with its whole chain and how it is authorised", async () => {
    const list = await listCredentials(connection, "weber");
    expect(list.credentialIDs).toEqual([credentialId]);
    expect(list.credentialInfos?.[0]).toMatchObject({ credentialID: credentialId, key: { status: "enabled" }, auth: { mode: "explicit" } });
    expect(list.credentialInfos?.[0].cert?.certificates).toHaveLength(1);
    expect(standIn.calls("credentials/list").at(-1)?.body).toEqual({ userID: "weber", credentialInfo: true, certificates: "single", certInfo: true, authInfo: true });
    expect((await listCredentials(connection, "nobody")).credentialIDs).toEqual([]);

    const info = await credentialInfoOf(connection, credentialId);
    expect(info.cert?.certificates).toHaveLength(2);
    expect(new X509Certificate(Buffer.from(info.cert!.certificates![0], "base64")).subject).toContain("CN=Dr. Anna Weber");
    expect(info.auth?.objects).toEqual([expect.objectContaining({ id: "OTP" })]);
    expect(info.multisign).toBe(3);
    expect(standIn.calls("credentials/info").at(-1)?.body).toEqual({ credentialID: credentialId, certificates: "chain", certInfo: true, authInfo: true });
  });

  it("an unknown credential is the service's refusal in words", async () => {
    const error = await failureOf(() => credentialInfoOf(connection, "cred-unknown"));
    expect(error).toBeInstanceOf(UnprocessableError);
    expect((error as Error).message).toBe("The trust service refused the request: Invalid parameter credentialID");
  });
});

describe("credentials/authorize and signatures/signHash", () => {
  it("one authorisation for several hashes with the signer's one-time password, one signHash; the values verify with the certificate", async () => {
    const hashes = [sha("one"), sha("two")];
    const { sad } = await authorizeCredential(connection, { credentialId, hashes, authData: OTP(standIn.issueOtp(credentialId)) });
    expect(standIn.calls("credentials/authorize").at(-1)?.body).toMatchObject({
      credentialID: credentialId,
      numSignatures: 2,
      hashes: hashes.map((h) => h.toString("base64")),
      hashAlgorithmOID: "2.16.840.1.101.3.4.2.1",
      authData: [{ id: "OTP", value: expect.stringMatching(/^\d{6}$/) }],
    });
    const values = await signHashes(connection, { credentialId, sad, hashes, signAlgorithm: "1.2.840.113549.1.1.11" });
    expect(standIn.calls("signatures/signHash").at(-1)?.body).toMatchObject({ credentialID: credentialId, SAD: sad, signAlgo: "1.2.840.113549.1.1.11", operationMode: "S" });
    const key = createPublicKey(new X509Certificate(standIn.certificateOf(credentialId)!).publicKey.export({ type: "spki", format: "pem" }));
    // RSA PKCS#1 v1.5 over the DigestInfo of each hash: what verify("sha256") of the hashed text checks.
    expect(values.map((v, i) => verify("sha256", Buffer.from(["one", "two"][i]), key, v))).toEqual([true, true]);

    // Used up: the SAD allowed two signatures.
    const again = await failureOf(() => signHashes(connection, { credentialId, sad, hashes: [hashes[0]], signAlgorithm: "1.2.840.113549.1.1.11" }));
    expect((again as Error).message).toMatch(/^The trust service refused the signature authorisation \(Invalid parameter SAD\)/);
  });

  it("refuses a wrong one-time password (then that one is gone), a reused one, and a missing one", async () => {
    const otp = standIn.issueOtp(credentialId);
    const wrong = await failureOf(() => authorizeCredential(connection, { credentialId, hashes: [sha("x")], authData: OTP(otp === "000000" ? "111111" : "000000") }));
    expect(wrong).toBeInstanceOf(UnprocessableError);
    expect((wrong as Error).message).toMatch(/^The trust service refused the one-time password/);
    // The attempt used the password up: the right one now fails too.
    expect(await failureOf(() => authorizeCredential(connection, { credentialId, hashes: [sha("x")], authData: OTP(otp) }))).toBeInstanceOf(UnprocessableError);

    const fresh = standIn.issueOtp(credentialId);
    await authorizeCredential(connection, { credentialId, hashes: [sha("x")], authData: OTP(fresh) });
    const reused = await failureOf(() => authorizeCredential(connection, { credentialId, hashes: [sha("x")], authData: OTP(fresh) }));
    expect((reused as Error).message).toMatch(/^The trust service refused the one-time password/);

    const missing = await failureOf(() => authorizeCredential(connection, { credentialId, hashes: [sha("x")], authData: [] }));
    expect((missing as Error).message).toMatch(/^The trust service refused the one-time password/);
  });

  it("refuses more signatures than the credential allows per authorisation, and hashes the SAD was not given for", async () => {
    const tooMany = await failureOf(() =>
      authorizeCredential(connection, { credentialId, hashes: [sha("1"), sha("2"), sha("3"), sha("4")], authData: OTP(standIn.issueOtp(credentialId)) }),
    );
    expect((tooMany as Error).message).toBe("The trust service refused the request: Numbers of signatures is too high");

    const { sad } = await authorizeCredential(connection, { credentialId, hashes: [sha("mine")], authData: OTP(standIn.issueOtp(credentialId)) });
    const other = await failureOf(() => signHashes(connection, { credentialId, sad, hashes: [sha("someone else's")], signAlgorithm: "1.2.840.113549.1.1.11" }));
    expect((other as Error).message).toMatch(/not the hashes the SAD authorises/);
    // The refusal spent nothing: the authorised hash still signs.
    expect(await signHashes(connection, { credentialId, sad, hashes: [sha("mine")], signAlgorithm: "1.2.840.113549.1.1.11" })).toHaveLength(1);
  });
});

describe("a service that cannot be used", () => {
  it("a 503, a dropped connection, a closed port: 503-style domain errors; a garbled answer: 502", async () => {
    await requestAccessToken(connection);
    standIn.misbehave(503);
    const unavailable = await failureOf(() => listCredentials(connection, "weber"));
    expect(unavailable).toBeInstanceOf(UpstreamError);
    expect(unavailable).toMatchObject({ retryable: true, code: "trust_service_unavailable" });
    expect((unavailable as Error).message).toMatch(/^The trust service is not available: The trust service answered HTTP 503/);

    standIn.misbehave("drop");
    expect(await failureOf(() => listCredentials(connection, "weber"))).toMatchObject({ retryable: true, code: "trust_service_unavailable" });

    standIn.misbehave("garbage");
    const garbled = await failureOf(() => listCredentials(connection, "weber"));
    expect(garbled).toMatchObject({ retryable: false, code: "trust_service_refused" });
    expect((garbled as Error).message).toMatch(/is not what the CSC API specifies \(credentialIDs\)/);

    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const unreachable = await failureOf(() => requestAccessToken({ ...connection, baseUrl: `http://127.0.0.1:${closed}/csc/v2/` }));
    expect(unreachable).toMatchObject({ retryable: true });
    expect((unreachable as Error).message).toMatch(/could not be reached \(ECONNREFUSED\)/);
  });

  it("no answer within the timeout is a 503 that says so", async () => {
    await requestAccessToken(connection);
    standIn.misbehave("hang");
    const error = await failureOf(() => listCredentials(connection, "weber"));
    expect(error).toMatchObject({ retryable: true, code: "trust_service_unavailable" });
    expect((error as Error).message).toMatch(/did not answer within 8 s/);
  });

  it("a loopback address when private destinations are not allowed: a 422 from the guard, nothing sent", async () => {
    const before = standIn.requests.length;
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "false";
    const { reloadConfig } = await import("@/server/config");
    reloadConfig();
    try {
      const error = await failureOf(() => requestAccessToken({ ...connection, clientId: "guarded" }));
      expect(error).toBeInstanceOf(UnprocessableError);
      expect((error as Error).message).toMatch(/^The trust service's address cannot be reached from here/);
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
      reloadConfig();
    }
    expect(standIn.requests.length).toBe(before);
  });
});
