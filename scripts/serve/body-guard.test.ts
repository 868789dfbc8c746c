import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { AUTH_BODY_MAX_BYTES, PAGE_BODY_MAX_BYTES, PASSKIT_BODY_MAX_BYTES } from "@/server/http/body-limits";
import { refuseUnboundedBody } from "./body-guard";

let server: http.Server | undefined;
/** Requests that got past the guard (to the handler Next.js would be). */
let handled = 0;

afterEach(async () => {
  const s = server;
  server = undefined;
  if (!s) return;
  s.closeAllConnections();
  await new Promise((resolve) => s.close(resolve));
});

async function start(): Promise<number> {
  handled = 0;
  server = http.createServer((req, res) => {
    if (refuseUnboundedBody(req, res)) return;
    handled++;
    let bytes = 0;
    req.on("data", (chunk: Buffer) => (bytes += chunk.length));
    req.on("end", () => res.end(`read ${bytes}`));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * Sends the head and `sent` bytes of body, then waits (sending nothing more) for the server's
 * answer and for it to close the connection. Resolves with the answer's text; rejects if the
 * server keeps the connection open (it would be waiting for the rest of the body).
 */
function exchange(port: number, head: string, sent: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = net.connect(port, "127.0.0.1", () => socket.write(Buffer.concat([Buffer.from(head), sent])));
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(answer));
    // A hang guard only: the server answers at once.
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open; got: ${answer.slice(0, 200)}`));
    }, 10_000).unref();
  });
}

const post = (path: string, headers: string) => `POST ${path} HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n`;

describe("the entry's bound on bodies Next.js would read", () => {
  it("answers 413 to a declared body over the cap and closes the connection without reading the rest", async () => {
    const port = await start();
    const declared = 8 * 1024 * 1024;
    for (const [path, cap] of [
      ["/api/auth/callback/credentials", AUTH_BODY_MAX_BYTES],
      ["/wallet/passkit/v1/log", PASSKIT_BODY_MAX_BYTES],
      ["/admin/orders", PAGE_BODY_MAX_BYTES],
    ] as const) {
      const answer = await exchange(port, post(path, `Content-Type: application/json\r\nContent-Length: ${declared}\r\n`), Buffer.alloc(64 * 1024, "a"));
      expect(answer, path).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer.toLowerCase()).toContain("connection: close");
      expect(answer).toContain(`the limit is ${cap / 1024} KiB`);
    }
    expect(handled).toBe(0);
  });

  it("answers 411 to a chunked body on those paths, and closes the connection", async () => {
    const port = await start();
    const answer = await exchange(port, post("/api/auth/callback/credentials", "Transfer-Encoding: chunked\r\n"), Buffer.from("10000\r\n"));
    expect(answer).toMatch(/^HTTP\/1\.1 411 /);
    expect(handled).toBe(0);
  });

  it("lets bodies within the cap through, and leaves REST and tRPC bodies to their own bounded readers", async () => {
    const port = await start();
    const small = await fetch(`http://127.0.0.1:${port}/api/auth/callback/credentials`, { method: "POST", body: "a".repeat(AUTH_BODY_MAX_BYTES) });
    expect(await small.text()).toBe(`read ${AUTH_BODY_MAX_BYTES}`);
    for (const path of ["/v1/management/orders", "/api/trpc/admin.questionnaires.publish"]) {
      const answer = await exchange(port, post(path, `Connection: close\r\nContent-Length: ${AUTH_BODY_MAX_BYTES + 10}\r\n`), Buffer.alloc(AUTH_BODY_MAX_BYTES + 10, "a"));
      expect(answer, path).toMatch(/^HTTP\/1\.1 200 /);
    }
    expect(handled).toBe(3);
  });
});
