/** A real HTTP receiver on 127.0.0.1 for webhook tests: records every request; answers as told. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Received = { path: string; headers: IncomingMessage["headers"]; raw: Buffer; json: any; at: number };
type Responder = (request: Received, res: ServerResponse) => void | Promise<void>;

export async function startReceiver(respond: Responder = (_r, res) => void res.writeHead(200).end("ok")) {
  const received: Received[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let responder = respond;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      let json: unknown = null;
      try {
        json = JSON.parse(raw.toString("utf8"));
      } catch {
        // not JSON: kept raw
      }
      const entry = { path: req.url ?? "/", headers: req.headers, raw, json, at: Date.now() };
      received.push(entry);
      for (const w of [...waiters]) if (received.length >= w.count) (waiters.splice(waiters.indexOf(w), 1), w.resolve());
      void responder(entry, res);
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    respondWith(next: Responder) {
      responder = next;
    },
    /** Resolves when `count` requests have arrived in all (rejects after `timeoutMs`). */
    waitFor(count: number, timeoutMs = 10_000): Promise<void> {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${received.length} of ${count} requests`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A port on 127.0.0.1 that refuses connections (bound, then closed): a dead webhook target. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
