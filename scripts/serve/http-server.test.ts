import type http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "@/server/config";
import { closeGracefully, createHttpServer } from "./http-server";

let server: http.Server | undefined;
afterEach(async () => {
  const s = server;
  server = undefined;
  if (!s) return;
  s.closeAllConnections();
  await new Promise((resolve) => s.close(resolve));
});

async function start(timeouts = { headersMs: 1_000, requestMs: 2_000, keepAliveMs: 500 }) {
  server = createHttpServer((req, res) => {
    req.resume();
    req.on("end", () => res.end("ok"));
  }, timeouts);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * Opens a connection, writes `text`, and resolves with the milliseconds until the server closes it
 * (its FIN arrives). Only a lower bound is asserted on that time (the deadline is not met early);
 * how soon after the deadline the close comes depends on the machine's load. The hang guard sits
 * far between our settings (at most 2 s plus one 1 s check) and Node's defaults (headers 60 s,
 * request 300 s, checks every 30 s), so a lost setting still fails the test.
 */
function heldConnection(port: number, text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
    socket.on("data", () => undefined);
    socket.on("end", () => resolve(Date.now() - started));
    socket.on("error", () => undefined);
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error("the server kept the connection open"));
    }, 20_000);
    socket.on("close", () => clearTimeout(guard));
  });
}

describe("the HTTP server's timeouts", () => {
  it("has the documented defaults", () => {
    expect(parseConfig({})).toMatchObject({ HTTP_HEADERS_TIMEOUT_MS: 10_000, HTTP_REQUEST_TIMEOUT_MS: 30_000, HTTP_KEEP_ALIVE_TIMEOUT_MS: 5_000 });
  });

  it("carries the given timeouts", async () => {
    await start();
    expect(server).toMatchObject({ headersTimeout: 1_000, requestTimeout: 2_000, keepAliveTimeout: 500 });
  });

  it("closes connections that hold partial headers after the header timeout, while a normal request succeeds", async () => {
    const port = await start();
    const slow = Array.from({ length: 20 }, () => heldConnection(port, "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: "));
    const ok = await fetch(`http://127.0.0.1:${port}/`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("ok");
    for (const ms of await Promise.all(slow)) expect(ms).toBeGreaterThanOrEqual(1_000);
  });

  it("closes a connection whose body stops coming after the request timeout", async () => {
    const port = await start();
    const ms = await heldConnection(port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789");
    expect(ms).toBeGreaterThanOrEqual(1_000);
  });

  it("closes an idle keep-alive connection after the keep-alive timeout", async () => {
    const port = await start();
    const ms = await heldConnection(port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(ms).toBeGreaterThanOrEqual(500);
  });

  it("closes gracefully: a request in flight finishes, new connections are refused", async () => {
    let finish!: () => void;
    let arrived!: () => void;
    const handling = new Promise<void>((resolve) => (arrived = resolve));
    server = createHttpServer(
      (_req, res) => {
        finish = () => res.end("late");
        arrived();
      },
      { headersMs: 1_000, requestMs: 2_000, keepAliveMs: 500 },
    );
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const inFlight = fetch(`http://127.0.0.1:${port}/`);
    await handling; // the request is in flight: the handler has it
    const closed = closeGracefully(server, 5_000);
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
    finish();
    expect(await (await inFlight).text()).toBe("late");
    await closed;
  });
});

describe("an answer given before the request's body has arrived", () => {
  /** The entry's server with the real REST kit behind the direct path (serve.ts's order). */
  async function startWithKit() {
    const { routeHandlers } = await import("@/server/rest/kit");
    const { managementApi } = await import("@/server/api/management");
    const { withClientAddress } = await import("./client-address");
    const { directApiHandler } = await import("./rest-direct");
    const direct = directApiHandler([{ basePath: "/v1/management", handlers: routeHandlers(managementApi) }])!;
    server = createHttpServer(
      withClientAddress((req, res) => void direct(req, res), []),
      { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 },
    );
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return (server.address() as AddressInfo).port;
  }

  /** Sends `head` and then `bodyBytes` bytes on a raw socket; resolves with the answer's head once it has come. */
  function rawRequest(port: number, head: string, bodyBytes: number): Promise<{ head: string; closed: Promise<void> }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.write(head);
        // Written in pieces, as a client uploads; the server may answer before the last piece.
        const piece = Buffer.alloc(16 * 1024, "x");
        let left = bodyBytes;
        const more = () => {
          while (left > 0) {
            const n = Math.min(left, piece.length);
            left -= n;
            if (!socket.write(piece.subarray(0, n))) return void socket.once("drain", more);
          }
        };
        more();
      });
      let received = "";
      const closed = new Promise<void>((done) => socket.on("close", () => done()));
      socket.on("error", () => undefined);
      socket.on("data", (chunk) => {
        received += chunk.toString("latin1");
        const end = received.indexOf("\r\n\r\n");
        if (end >= 0) resolve({ head: received.slice(0, end), closed });
      });
      setTimeout(() => reject(new Error("no answer")), 20_000).unref();
    });
  }

  it("says Connection: close on a 401 to POST /v1/management/orders with no key and a 400 KB body, and closes the connection", async () => {
    const port = await startWithKit();
    const size = 400 * 1024;
    const answer = await rawRequest(
      port,
      `POST /v1/management/orders/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\nConnection: keep-alive\r\n\r\n`,
      size,
    );
    expect(answer.head).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer.head.toLowerCase()).toContain("\r\nconnection: close");
    await answer.closed;
  });

  it("keeps a request whose body was read alive", async () => {
    const port = await startWithKit();
    const answer = await rawRequest(port, `GET /v1/management/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, 0);
    expect(answer.head.toLowerCase()).toContain("\r\nconnection: keep-alive");
  });
});
