/**
 * A local stand-in for APNs: an HTTP/2 TLS server with a self-made certificate for 127.0.0.1 that
 * records each request (path, headers, body, the client certificate's subject) and answers per
 * push token (200 unless told otherwise).
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import forge from "node-forge";
import { createRootCa } from "@/server/pki/certificates";

export type RecordedPush = { path: string; headers: http2.IncomingHttpHeaders; body: string; clientCommonName: string | null };

async function serverCertificate() {
  const ca = await createRootCa({ commonName: "Test APNs CA" });
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const cert = forge.pki.createCertificate();
  cert.serialNumber = `1${randomBytes(8).toString("hex")}`;
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString());
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
  cert.setSubject([{ name: "commonName", value: "127.0.0.1" }]);
  const caCert = forge.pki.certificateFromPem(ca.certificatePem);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
    { name: "extKeyUsage", serverAuth: true },
    { name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(ca.privateKeyPem), forge.md.sha256.create());
  return { caPem: ca.certificatePem, certPem: forge.pki.certificateToPem(cert), keyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString() };
}

export async function startApnsServer() {
  const { caPem, certPem, keyPem } = await serverCertificate();
  const pushes: RecordedPush[] = [];
  const answers = new Map<string, { status: number; reason?: string }>();
  const server = http2.createSecureServer({ key: keyPem, cert: certPem, requestCert: true, rejectUnauthorized: false });
  server.on("stream", (stream, headers) => {
    let body = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => (body += chunk));
    stream.on("end", () => {
      const path = String(headers[":path"]);
      const commonName = (stream.session?.socket as TLSSocket | undefined)?.getPeerCertificate()?.subject?.CN;
      pushes.push({ path, headers, body, clientCommonName: typeof commonName === "string" ? commonName : null });
      const answer = answers.get(decodeURIComponent(path.split("/").pop() ?? "")) ?? { status: 200 };
      stream.respond({ ":status": answer.status, "content-type": "application/json" });
      stream.end(answer.reason ? JSON.stringify({ reason: answer.reason }) : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    caPem,
    pushes,
    answer: (pushToken: string, status: number, reason?: string) => answers.set(pushToken, { status, reason }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
