import { NextRequest } from "next/server";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import * as inngestRoute from "@/app/api/inngest/route";
import * as passkitRoute from "@/app/wallet/passkit/[...path]/route";
import { proxy } from "@/proxy";
import { restApiFor } from "@/server/api/rest-apis";
import { reloadConfig } from "@/server/config";
import { handleTrpcRequest } from "@/server/trpc/handler";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { call, get } from "@/tests/http";
import { API_CONTENT_SECURITY_POLICY, EXPLORER_CONTENT_SECURITY_POLICY } from "./security-headers";

const FAMILIES = ["/v1/management", "/v2/public-api", "/v1/external_pharmacy_api", "/v1/external-pharmacy-api-v1", "/api/v0/patient"];

/** The headers every answer carries, with the policy `csp` (a string, or a pattern for a page's nonce). */
function expectSecured(headers: Headers, csp: string | RegExp, what: string) {
  if (typeof csp === "string") expect(headers.get("content-security-policy"), what).toBe(csp);
  else expect(headers.get("content-security-policy"), what).toMatch(csp);
  expect(headers.get("x-frame-options"), what).toBe("DENY");
  expect(headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(headers.get("referrer-policy"), what).toBe("strict-origin-when-cross-origin");
}

let t: Tenant;
beforeAll(async () => {
  t = await createTenant();
});
afterEach(() => {
  delete process.env.PUBLIC_BASE_URL;
  reloadConfig();
});

describe("security headers", () => {
  it("are on every REST family's answers: a success, an error, the HTML 404 and 405", async () => {
    const ok = await get("/v1/management/orders/", { key: t.keys.management });
    expect(ok.status).toBe(200);
    expectSecured(ok.headers, API_CONTENT_SECURITY_POLICY, "a success");
    for (const base of FAMILIES) {
      const route = restApiFor(base)!.routes.find((r) => r.method === "GET" && !r.path.includes(":"))!;
      const refused = await get(`${base}${route.path}`);
      expect(refused.status, base).toBe(401);
      expectSecured(refused.headers, API_CONTENT_SECURITY_POLICY, `401 of ${base}`);
      const unknown = await get(`${base}/no-such-path`);
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get("content-type")).toMatch(/^text\/html/);
      expectSecured(unknown.headers, API_CONTENT_SECURITY_POLICY, `HTML 404 of ${base}`);
      const wrongMethod = await call("DELETE", `${base}${route.path}`);
      expect(wrongMethod.status).toBe(405);
      expectSecured(wrongMethod.headers, API_CONTENT_SECURITY_POLICY, `HTML 405 of ${base}`);
    }
    const tooLarge = await call("POST", "/v1/management/orders/", { key: t.keys.management, raw: "{}", headers: { "content-type": "application/json", "content-length": String(33 * 1024 * 1024) } });
    expect(tooLarge.status).toBe(413);
    expectSecured(tooLarge.headers, API_CONTENT_SECURITY_POLICY, "413");
  });

  it("give the API explorer its own policy: scripts from its own files only, no inline script in the page", async () => {
    const page = await get("/v1/management/apidocs");
    expectSecured(page.headers, EXPLORER_CONTENT_SECURITY_POLICY, "the explorer");
    expect(EXPLORER_CONTENT_SECURITY_POLICY).toContain("script-src 'self';");
    // Every script of the page is a file of the explorer (its policy allows no inline script).
    const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(body.trim()).toBe("");
      const src = /src="([^"]+)"/.exec(attributes)![1];
      const file = await get(src);
      expect(file.status, src).toBe(200);
      expect(file.headers.get("content-type")).toMatch(/javascript/);
    }
    const starter = await get("/v1/management/apidocs/explorer.js");
    expect(starter.text).toContain('"/v1/management/apidocs/openapi.json"');
    expectSecured((await get("/v1/management/apidocs/openapi.json")).headers, API_CONTENT_SECURITY_POLICY, "the document");
  });

  it("are on tRPC's answers, its refusals included", async () => {
    const unknown = await handleTrpcRequest(new Request("http://localhost:3000/api/trpc/no.such.procedure"));
    expect(unknown.status).toBe(404);
    expectSecured(unknown.headers, API_CONTENT_SECURITY_POLICY, "tRPC 404");
    const unauthorised = await handleTrpcRequest(new Request("http://localhost:3000/api/trpc/pharmacy.pharmacies.list"));
    expect(unauthorised.status).toBe(401);
    expectSecured(unauthorised.headers, API_CONTENT_SECURITY_POLICY, "tRPC 401");
    const crossSite = await handleTrpcRequest(
      new Request("http://localhost:3000/api/trpc/pharmacy.pharmacies.list", { method: "POST", headers: { origin: "https://evil.example" }, body: "{}" }),
    );
    expect(crossSite.status).toBe(403);
    expectSecured(crossSite.headers, API_CONTENT_SECURITY_POLICY, "tRPC 403");
  });

  it("are on the 405 and OPTIONS answers of every route file outside the REST kit (issue 36)", async () => {
    const routes: [string, Record<string, unknown>, string[], string][] = [
      ["/api/trpc/x", await import("@/app/api/trpc/[trpc]/route"), ["PUT", "PATCH", "DELETE", "OPTIONS"], "GET, HEAD, POST, OPTIONS"],
      ["/api/auth/x", await import("@/app/api/auth/[...nextauth]/route"), ["PUT", "PATCH", "DELETE", "OPTIONS"], "GET, HEAD, POST, OPTIONS"],
      ["/api/shopify/webhooks/x", await import("@/app/api/shopify/webhooks/[shop]/route"), ["GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"], "POST, OPTIONS"],
      ["/api/inngest", inngestRoute, ["PATCH", "DELETE", "OPTIONS"], "GET, HEAD, POST, PUT, OPTIONS"],
      ["/wallet/passes/x/y", await import("@/app/wallet/passes/[uid]/[file]/route"), ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"], "GET, HEAD, OPTIONS"],
      ["/wallet/passkit/v1/log", passkitRoute, ["PUT", "PATCH", "OPTIONS"], "GET, HEAD, POST, DELETE, OPTIONS"],
    ];
    for (const [path, module, methods, allow] of routes) {
      for (const method of methods) {
        const what = `${method} ${path}`;
        const handler = module[method] as ((request: Request) => Promise<Response> | Response) | undefined;
        // A method the route file does not export is answered by Next.js itself, with no security headers.
        expect(typeof handler, what).toBe("function");
        const answer = await handler!(new Request(`http://localhost:3000${path}`, { method }));
        expect(answer.status, what).toBe(method === "OPTIONS" ? 204 : 405);
        expect(answer.headers.get("allow"), what).toBe(allow);
        expectSecured(answer.headers, API_CONTENT_SECURITY_POLICY, what);
      }
    }
  });

  it("are on the wallet and Inngest routes' answers", async () => {
    const passkit = await passkitRoute.GET(new Request("http://localhost:3000/wallet/passkit/v1/log"), { params: Promise.resolve({ path: ["v1", "log"] }) });
    expectSecured(passkit.headers, API_CONTENT_SECURITY_POLICY, "PassKit");
    const inngest = await inngestRoute.GET(new NextRequest("http://localhost:3000/api/inngest"), undefined);
    expect(inngest.status).toBe(404);
    expectSecured(inngest.headers, API_CONTENT_SECURITY_POLICY, "Inngest");
  });

  it("give every page a strict policy with a new nonce for its scripts, which Next.js reads from the request", async () => {
    const nonces = new Set<string>();
    for (const path of ["/", "/signin", "/admin", "/admin/orders/x", "/pharmacy/orders/x", "/checkout/token", "/invitation/token", "/reset-password/token"]) {
      const answer = await proxy(new NextRequest(`http://localhost:3000${path}`));
      expect(answer.headers.get("x-middleware-next"), path).toBe("1");
      const csp = answer.headers.get("content-security-policy")!;
      expectSecured(answer.headers, /^default-src 'self';/, path);
      const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]{24})' 'strict-dynamic';/.exec(csp)?.[1];
      expect(nonce, `${path}: ${csp}`).toBeDefined();
      nonces.add(nonce!);
      // The same policy on the request, where Next.js finds the nonce it puts on the page's scripts.
      expect(answer.headers.get("x-middleware-request-content-security-policy"), path).toBe(csp);
      // Framed by no one (a page of ours in another origin's frame is refused), no plugins, no <base>.
      for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'", "form-action 'self'"]) expect(csp).toContain(directive);
      expect(csp).not.toMatch(/unsafe-eval/);
    }
    expect(nonces.size).toBe(8);
    // API paths are left to their handlers (which set the API policy themselves).
    for (const path of ["/v1/management/orders/", "/api/trpc/pharmacy.pharmacies.list", "/wallet/passkit/v1/log"]) {
      expect((await proxy(new NextRequest(`http://localhost:3000${path}`))).headers.get("content-security-policy"), path).toBeNull();
    }
  });

  it("add HSTS when the base URL is https, and only then", async () => {
    expect((await get("/v1/management/nope")).headers.get("strict-transport-security")).toBeNull();
    expect((await proxy(new NextRequest("http://localhost:3000/admin"))).headers.get("strict-transport-security")).toBeNull();
    process.env.PUBLIC_BASE_URL = "https://rx.example";
    reloadConfig();
    expect((await get("/v1/management/nope")).headers.get("strict-transport-security")).toBe("max-age=31536000");
    expect((await proxy(new NextRequest("http://localhost:3000/admin"))).headers.get("strict-transport-security")).toBe("max-age=31536000");
    const trpc = await handleTrpcRequest(new Request("http://localhost:3000/api/trpc/no.such.procedure"));
    expect(trpc.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });
});
