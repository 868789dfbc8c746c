import { existsSync, readFileSync } from "node:fs";
import type http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { Readable } from "node:stream";
import { apiSecurityHeaders } from "@/server/http/security-headers";
import { methodNotAllowedPage } from "@/server/rest/responses";

type WebHandler = (request: Request) => Promise<Response>;
type Family = { basePath: string; handlers: Record<string, WebHandler> };

/**
 * The API route handlers, straight from the build (the same module instances Next.js runs: the kit,
 * its rate-limit counters, the database connection), found in the build's manifest: every
 * `…/[[...path]]/route` catch-all under /v1, /v2 or /api/v0 hands its whole REST family to the kit,
 * and `/api/trpc/[trpc]/route` serves the portals' procedures (it reads the session from the
 * request's cookie header, not from Next.js's request context; tRPC answers an undecodable
 * procedure path with its own 400).
 */
export async function loadApiRoutes(root: string): Promise<Family[]> {
  const manifestFile = path.join(root, ".next", "server", "app-paths-manifest.json");
  if (!existsSync(manifestFile)) return [];
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Record<string, string>;
  const require = createRequire(path.join(root, "package.json"));
  const families: Family[] = [];
  for (const [route, file] of Object.entries(manifest)) {
    const match = /^(\/(?:v1|v2|api\/v0)\/[^[]+)\/\[\[\.\.\.path\]\]\/route$/.exec(route) ?? /^(\/api\/trpc)\/\[trpc\]\/route$/.exec(route);
    if (!match) continue;
    const { routeModule } = require(path.join(root, ".next", "server", file)) as {
      routeModule: { ensureUserland(): Promise<void>; userland: Record<string, unknown> };
    };
    await routeModule.ensureUserland();
    const handlers: Record<string, WebHandler> = {};
    for (const [name, value] of Object.entries(routeModule.userland)) {
      if (/^[A-Z]+$/.test(name) && typeof value === "function") handlers[name] = value as WebHandler;
    }
    families.push({ basePath: match[1], handlers });
  }
  return families;
}

/**
 * Serves REST requests without Next.js's router and response streaming: the request goes to the
 * family's own route handler (what Next.js would call) and its answer is written as one buffer with
 * a Content-Length, where Next.js pipes every body through a web stream as a chunked response
 * (it drops a handler's Content-Length). The bodies, statuses and the handler's headers are the
 * same; what differs is framing and Next.js's `Vary` header for its own router. Measured in the
 * scale benchmark (README). Returns null for anything else (and for a method the family's route
 * does not export, which Next.js answers itself), which then goes to Next.js.
 */
export function directApiHandler(families: Family[]): ((req: http.IncomingMessage, res: http.ServerResponse) => boolean) | null {
  if (families.length === 0) return null;
  return (req, res) => {
    const url = req.url ?? "/";
    const family = families.find((f) => url.startsWith(f.basePath) && (url.length === f.basePath.length || "/?".includes(url[f.basePath.length])));
    if (family && FETCH_FORBIDDEN_METHODS.has(req.method ?? "")) {
      void refuseForbiddenMethod(family, req, res);
      return true;
    }
    const handler = family?.handlers[req.method ?? ""];
    if (!handler) return false;
    void serve(handler, req, res);
    return true;
  };
}

/** Methods a fetch Request cannot carry (Next.js fails on them with a text/plain 500). */
export const FETCH_FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/**
 * TRACE, TRACK or CONNECT on a REST path: the kit's answer to an unrouted method (the HTML 405 with
 * the path's Allow, or the HTML 404 of an unknown path), taken from the family's answer to OPTIONS,
 * which no route serves, with the method named as sent.
 */
async function refuseForbiddenMethod(family: Family, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const probe = family.handlers.OPTIONS;
  const answer = probe ? await probe(new Request(`http://localhost${req.url}`, { method: "OPTIONS" })) : null;
  // tRPC's route file answers OPTIONS itself (a 204 with Allow): its Allow names the methods too.
  if (!answer || (answer.status !== 405 && answer.status !== 204)) {
    res.writeHead(answer?.status ?? 405, { ...apiSecurityHeaders(), "content-type": answer?.headers.get("content-type") ?? "text/plain" });
    res.end(answer ? Buffer.from(await answer.arrayBuffer()) : "Method Not Allowed");
    return;
  }
  const page = methodNotAllowedPage(req.method!, (answer.headers.get("allow") ?? "").split(", ").filter(Boolean));
  const body = Buffer.from(await page.arrayBuffer());
  res.writeHead(405, { ...Object.fromEntries(page.headers), "content-length": body.length });
  res.end(body);
}

async function serve(handler: WebHandler, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  try {
    // The forwarding headers Next.js adds before a route sees the request (X-Forwarded-For, the
    // client's address, was set by the entry: client-address.ts).
    const encrypted = Boolean((req.socket as { encrypted?: boolean }).encrypted);
    const proto = (req.headers["x-forwarded-proto"] as string | undefined) ?? (encrypted ? "https" : "http");
    req.headers["x-forwarded-host"] ??= req.headers.host;
    req.headers["x-forwarded-port"] ??= String(req.socket.localPort ?? "");
    req.headers["x-forwarded-proto"] ??= proto;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else headers.set(name, value);
    }
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const request = new Request(`${proto}://${req.headers.host ?? "localhost"}${req.url}`, {
      method: req.method,
      headers,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
    } as RequestInit);
    const response = await handler(request);
    const body = response.body && req.method !== "HEAD" ? Buffer.from(await response.arrayBuffer()) : null;
    res.statusCode = response.status;
    response.headers.forEach((value, name) => res.appendHeader(name, value));
    if (body) res.setHeader("content-length", body.length);
    res.end(body ?? undefined);
  } catch (error) {
    // The kit answers every error itself; this is a fault of this adapter.
    console.error("[serve] REST request failed outside the kit:", error);
    if (!res.headersSent) res.writeHead(500, apiSecurityHeaders());
    res.end();
  }
}
