import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { routeHandlers } from "@/server/rest/kit";
import { managementApi } from "@/server/api/management";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { withClientAddress } from "./client-address";
import * as trpcRoute from "@/app/api/trpc/[trpc]/route";
import { directApiHandler, loadApiRoutes } from "./rest-direct";

let server: http.Server | undefined;
afterEach(async () => {
  const s = server;
  server = undefined;
  if (!s) return;
  s.closeAllConnections();
  await new Promise((resolve) => s.close(resolve));
});

/** The direct path, behind the entry's client address, in front of a stand-in for Next.js, which answers 299 to whatever it is given. */
async function start(handlers: Record<string, (r: Request) => Promise<Response>>, basePath = "/v1/management") {
  const direct = directApiHandler([{ basePath, handlers }])!;
  server = http.createServer(
    withClientAddress((req, res) => {
      if (!direct(req, res)) res.writeHead(299).end("next");
    }, []),
  );
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("REST requests served straight to their route handlers", () => {
  it("writes the handler's answer as one buffer with a Content-Length, bytes and headers unchanged", async () => {
    let seen: Request | undefined;
    const url = await start({
      GET: async (request) => {
        seen = request;
        return new Response('{"a":"é"}', { status: 201, headers: { "content-type": "application/json", "x-extra": "1" } });
      },
    });
    const r = await fetch(`${url}/v1/management/things/?x=1`, { headers: { "x-api-key": "k" } });
    expect(r.status).toBe(201);
    expect(r.headers.get("content-length")).toBe(String(Buffer.byteLength('{"a":"é"}')));
    expect(r.headers.get("transfer-encoding")).toBeNull();
    expect(r.headers.get("x-extra")).toBe("1");
    expect(await r.text()).toBe('{"a":"é"}');
    expect(new URL(seen!.url).pathname + new URL(seen!.url).search).toBe("/v1/management/things/?x=1");
    expect(seen!.headers.get("x-api-key")).toBe("k");
    // The address the entry decided (client-address.ts), which the rate limit counts.
    expect(seen!.headers.get("x-forwarded-for")).toBe("127.0.0.1");
  });

  it("passes the request body through", async () => {
    const url = await start({ POST: async (request) => new Response(await request.text()) });
    const r = await fetch(`${url}/v1/management`, { method: "POST", body: "x".repeat(200_000) });
    expect((await r.text()).length).toBe(200_000);
  });

  it("leaves other paths and methods the route does not export to Next.js", async () => {
    const url = await start({ GET: async () => new Response("direct") });
    expect((await fetch(`${url}/v1/management-other/x`)).status).toBe(299);
    expect((await fetch(`${url}/v1/management/x`, { method: "PUT" })).status).toBe(299);
    expect(await (await fetch(`${url}/v1/management/x`)).text()).toBe("direct");
  });

  it("refuses an over-cap declared body with the kit's 413 without reading it, and closes the connection", async () => {
    const url = await start(routeHandlers(managementApi));
    const { port } = new URL(url);
    const answer = await new Promise<string>((resolve, reject) => {
      let text = "";
      const socket = net.connect(Number(port), "127.0.0.1", () =>
        // 33 MiB declared, a few bytes sent: the answer comes without waiting for the rest.
        socket.write(`POST /v1/management/orders/ HTTP/1.1\r\nHost: x\r\nX-API-Key: rxm_unknown\r\nContent-Type: application/json\r\nContent-Length: ${33 * 1024 * 1024}\r\n\r\n{"a":`),
      );
      socket.on("data", (d) => (text += d.toString()));
      socket.on("close", () => resolve(text));
      socket.on("error", reject);
      setTimeout(() => reject(new Error(`no answer and the connection stayed open: ${text}`)), 5_000).unref();
    });
    expect(answer).toMatch(/^HTTP\/1.1 413/);
    expect(answer).toMatch(/connection: close/i);
    expect(answer).toContain('{"error":"Request body too large: the limit is 32 MiB."}');
  });

  it("answers TRACE, which no fetch Request can carry, like any unrouted method: the HTML 405 with the path's Allow", async () => {
    const url = await start(routeHandlers(managementApi));
    const send = (path: string) =>
      new Promise<{ status: number; allow: string | undefined; type: string | undefined; body: string }>((resolve, reject) => {
        const request = http.request(`${url}${path}`, { method: "TRACE" }, (response) => {
          let body = "";
          response.on("data", (d) => (body += d));
          response.on("end", () =>
            resolve({ status: response.statusCode!, allow: response.headers.allow, type: response.headers["content-type"], body }),
          );
        });
        request.on("error", reject);
        request.end();
      });
    const known = await send("/v1/management/orders/");
    expect(known).toMatchObject({ status: 405, allow: "GET, POST", type: "text/html; charset=utf-8" });
    expect(known.body).toContain("The method TRACE is not allowed for the requested URL.");
    expect((await send("/v1/management/no-such-thing")).status).toBe(404);
  });

  it("finds every REST family's catch-all route in the build's manifest, /api/v0/patient included", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "rest-direct-"));
    try {
      const server = path.join(root, ".next", "server");
      mkdirSync(server, { recursive: true });
      const routes = ["/v1/management", "/v2/public-api", "/api/v0/patient"];
      const manifest: Record<string, string> = { "/api/inngest/route": "app/api/inngest/route.js" };
      for (const [i, base] of routes.entries()) {
        manifest[`${base}/[[...path]]/route`] = `route-${i}.js`;
        writeFileSync(
          path.join(server, `route-${i}.js`),
          `module.exports = { routeModule: { ensureUserland: async () => {}, userland: { GET: async () => new Response(${JSON.stringify(base)}) } } };`,
        );
      }
      writeFileSync(path.join(root, "package.json"), "{}");
      writeFileSync(path.join(server, "app-paths-manifest.json"), JSON.stringify(manifest));
      const families = await loadApiRoutes(root);
      expect(families.map((f) => f.basePath).sort()).toEqual([...routes].sort());
      const patient = families.find((f) => f.basePath === "/api/v0/patient")!;
      expect(await (await patient.handlers.GET(new Request("http://x/api/v0/patient/intent"))).text()).toBe("/api/v0/patient");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("tRPC served straight to its route handler", () => {
  /** Sends `head` (and `body`) on a new connection; the raw answer once the server closes it. */
  const exchange = (url: string, head: string, body: string) =>
    new Promise<string>((resolve, reject) => {
      let text = "";
      const socket = net.connect(Number(new URL(url).port), "127.0.0.1", () => socket.write(head + body));
      socket.on("data", (d) => (text += d.toString()));
      socket.on("close", () => resolve(text));
      socket.on("error", (error) => reject(new Error(`${error.message} after: ${text}`)));
      // A hang guard only: the server closes the connection right after its answer.
      setTimeout(() => reject(new Error(`the connection stayed open after: ${text}`)), 10_000).unref();
    });

  it("refuses a body over its 1 MiB cap with 413 and Connection: close, declared or streamed, and serves the next connection", async () => {
    const url = await start(trpcRoute as unknown as Record<string, (r: Request) => Promise<Response>>, "/api/trpc");
    const post = "POST /api/trpc/admin.home HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\nContent-Type: application/json\r\n";
    // Declared over the cap: answered before the body is read.
    const declared = await exchange(url, `${post}Content-Length: ${2 * 1024 * 1024}\r\n\r\n`, '{"a":');
    // Streamed without a length: refused once the cap is passed while reading.
    const chunk = "x".repeat(512 * 1024);
    const chunked = await exchange(url, `${post}Transfer-Encoding: chunked\r\n\r\n`, `${chunk.length.toString(16)}\r\n${chunk}\r\n`.repeat(3));
    for (const answer of [declared, chunked]) {
      expect(answer).toMatch(/^HTTP\/1.1 413/);
      expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(answer).toContain('"code":"PAYLOAD_TOO_LARGE"');
    }
    // A client that honours Connection: close sends its next request on a new connection: answered.
    const next = await fetch(`${url}/api/trpc/no.such.procedure`);
    expect(next.status).toBe(404);
    expect((await next.json()).error.data.code).toBe("NOT_FOUND");
  });
});
