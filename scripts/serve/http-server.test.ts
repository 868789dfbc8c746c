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
