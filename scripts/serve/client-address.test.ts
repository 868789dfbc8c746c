import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as downloadRoute from "@/app/wallet/passes/[uid]/[file]/route";
import { managementApi } from "@/server/api/management";
import { hashPassword } from "@/server/auth/password";
import { authorizeCredentials } from "@/server/auth/portal-session";
import { parseConfig, reloadConfig } from "@/server/config";
import { log } from "@/server/log";
import { routeHandlers } from "@/server/rest/kit";
import { clientAddress } from "@/server/rest/rate-limit";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { post } from "@/tests/http";
import { createCustomer, createWalletTemplates } from "@/tests/wallet-passes";
import { clientAddressPolicy, clientAddressResolver, withClientAddress } from "./client-address";
import { directApiHandler } from "./rest-direct";

const PASSWORD = "a long enough password";

/** The resolver on a request as node hands it to the entry: a peer address and the headers sent. */
const resolveFor = (trusted: string[], peer: string, headers: http.IncomingHttpHeaders = {}) =>
  clientAddressResolver(trusted)({ socket: { remoteAddress: peer }, headers } as unknown as http.IncomingMessage);

describe("the client address resolver (unit)", () => {
  it("takes the connection's peer by default, whatever X-Forwarded-For, Forwarded or X-Real-IP say", () => {
    const forged = { "x-forwarded-for": "203.0.113.9", forwarded: "for=203.0.113.9", "x-real-ip": "203.0.113.9" };
    expect(resolveFor([], "198.51.100.1", forged)).toBe("198.51.100.1");
    expect(resolveFor([], "2001:db8::1", forged)).toBe("2001:db8::1");
    // IPv4-mapped IPv6 (a dual-stack socket) is the IPv4 address.
    expect(resolveFor([], "::ffff:127.0.0.1", forged)).toBe("127.0.0.1");
  });

  it("behind trusted proxies takes the rightmost hop they did not append", () => {
    const chain = { "x-forwarded-for": "6.6.6.6, 198.51.100.7, 10.0.0.1" };
    expect(resolveFor(["loopback", "10.0.0.1"], "127.0.0.1", chain)).toBe("198.51.100.7");
    expect(resolveFor(["loopback", "10.0.0.0/8"], "::ffff:127.0.0.1", chain)).toBe("198.51.100.7");
    // Only the peer is trusted: the hop it appended, however the client padded the left.
    expect(resolveFor(["127.0.0.1"], "127.0.0.1", chain)).toBe("10.0.0.1");
    // Every hop trusted: the leftmost.
    expect(resolveFor(["loopback", "10.0.0.1", "198.51.100.0/24"], "127.0.0.1", chain)).toBe("6.6.6.6");
    expect(resolveFor(["::1"], "::1", { "x-forwarded-for": "2001:db8::5" })).toBe("2001:db8::5");
    expect(resolveFor(["loopback"], "127.0.0.1", { "x-forwarded-for": "::ffff:192.0.2.3" })).toBe("192.0.2.3");
    // An untrusted peer's header is ignored.
    expect(resolveFor(["10.0.0.1"], "198.51.100.1", chain)).toBe("198.51.100.1");
  });

  it("never takes a hop that is not an address: the trusted proxy that passed it on", () => {
    for (const garbage of ["garbage", "<script>", "1.2.3.4:80", "unknown", "999.1.1.1", "", " , ,", "2001:db8::g"]) {
      expect(resolveFor(["loopback"], "127.0.0.1", { "x-forwarded-for": garbage })).toBe("127.0.0.1");
      expect(resolveFor([], "198.51.100.1", { "x-forwarded-for": garbage })).toBe("198.51.100.1");
    }
  });

  it("warns once per resolver when an untrusted peer sends forwarding headers, naming the peer and the setting", () => {
    const warn = vi.spyOn(log, "warn");
    try {
      const resolve = clientAddressResolver([]);
      const from = (peer: string, headers: http.IncomingHttpHeaders) => resolve({ socket: { remoteAddress: peer }, headers } as unknown as http.IncomingMessage);
      from("192.0.2.1", {});
      expect(warn).not.toHaveBeenCalled();
      from("192.0.2.1", { forwarded: "for=203.0.113.1" });
      from("192.0.2.2", { "x-forwarded-for": "203.0.113.1" });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0][1]).toMatchObject({ peer: "192.0.2.1", setting: "TRUSTED_PROXIES" });
      // A trusted peer forwarding is how it should be: no warning.
      clientAddressResolver(["192.0.2.1"])({ socket: { remoteAddress: "192.0.2.1" }, headers: { "x-forwarded-for": "203.0.113.1" } } as unknown as http.IncomingMessage);
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });

  it("states the policy, and TRUSTED_PROXIES is parsed and checked", () => {
    expect(clientAddressPolicy([])).toMatch(/peer.*TRUSTED_PROXIES unset/);
    expect(clientAddressPolicy(["10.0.0.0/8", "loopback"])).toContain("TRUSTED_PROXIES=10.0.0.0/8,loopback");
    expect(parseConfig({}).TRUSTED_PROXIES).toEqual([]);
    expect(parseConfig({ TRUSTED_PROXIES: " 10.0.0.0/8, loopback ,2001:db8::/32," }).TRUSTED_PROXIES).toEqual(["10.0.0.0/8", "loopback", "2001:db8::/32"]);
    expect(() => parseConfig({ TRUSTED_PROXIES: "10.0.0.0/8, my-proxy" })).toThrow(/TRUSTED_PROXIES/);
    expect(() => parseConfig({ TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(/TRUSTED_PROXIES/);
  });

  it("clientAddress counts the one address the entry set; IPv6 by its /64; anything else as unknown", () => {
    const of = (value: string) => clientAddress({ headers: new Headers({ "x-forwarded-for": value }) });
    expect(of("192.0.2.1")).toBe("192.0.2.1");
    expect(of("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(of("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(of("2001:db8:1:2::ffff")).toBe("2001:db8:1:2::/64");
    for (const forged of ["203.0.113.1, 198.51.100.1", "garbage", "", "1.2.3.4:80"]) expect(of(forged)).toBe("unknown");
    expect(clientAddress({ headers: new Headers({ "x-real-ip": "192.0.2.1" }) })).toBe("unknown");
  });
});

// ── Through the entry's listener, in front of the real handlers ──

let t: Tenant;
let server: http.Server | undefined;
beforeAll(async () => {
  t = await createTenant();
});
afterEach(async () => {
  process.env.RATE_LIMIT_PER_SECOND = "1000000";
  reloadConfig();
  const s = server;
  server = undefined;
  if (!s) return;
  s.closeAllConnections();
  await new Promise((resolve) => s.close(resolve));
});

/**
 * The entry's listener (withClientAddress) in front of what it serves: the REST families straight
 * to their handlers (rest-direct.ts), and, standing in for Next.js, the wallet download route and
 * a sign-in that hands the request's headers to authorizeCredentials as next-auth does
 * (answering 200, 401, or 429 when throttled); `/echo` answers the address a handler sees.
 */
async function startEntry(trusted: string[] = []): Promise<string> {
  const direct = directApiHandler([{ basePath: "/v1/management", handlers: routeHandlers(managementApi) }])!;
  const listener = withClientAddress((req, res) => {
    if (direct(req, res)) return;
    void (async () => {
      const url = new URL(req.url ?? "/", "http://localhost");
      const headers = new Headers(Object.entries(req.headers).map(([k, v]): [string, string] => [k, String(v)]));
      if (url.pathname === "/echo") return void res.end(JSON.stringify({ seen: req.headers["x-forwarded-for"], counted: clientAddress({ headers }) }));
      if (url.pathname.startsWith("/wallet/passes/")) {
        const [, , , uid, file] = url.pathname.split("/");
        const answer = await downloadRoute.GET(new Request(url, { headers }), { params: Promise.resolve({ uid, file }) });
        return void res.writeHead(answer.status).end();
      }
      let body = "";
      for await (const chunk of req) body += chunk;
      const { email, password } = JSON.parse(body) as { email: string; password: string };
      try {
        const user = await authorizeCredentials(email, password, Object.fromEntries(headers));
        res.writeHead(user ? 200 : 401).end();
      } catch (error) {
        res.writeHead(/^TooManyAttempts:/.test((error as Error).message) ? 429 : 500).end();
      }
    })();
  }, trusted);
  server = http.createServer(listener);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function newUser(): Promise<string> {
  const email = `addr-${crypto.randomUUID().slice(0, 8)}@example.com`;
  await t.db.user.create({ data: { email, displayName: "Address test", passwordHash: await hashPassword(PASSWORD), role: "ADMIN", organisationId: t.organisation.id } });
  return email;
}

const signIn = (base: string, email: string, password: string, forwardedFor?: string) =>
  fetch(`${base}/sign-in`, {
    method: "POST",
    headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
    body: JSON.stringify({ email, password }),
  }).then((r) => r.status);

describe("the entry decides the address: forged X-Forwarded-For buys nothing", () => {
  it("hands the handlers the peer's address, not the client's header", async () => {
    const base = await startEntry();
    const r = await fetch(`${base}/echo`, { headers: { "x-forwarded-for": "203.0.113.1, 203.0.113.2", "x-real-ip": "203.0.113.3" } });
    expect(await r.json()).toEqual({ seen: "127.0.0.1", counted: "127.0.0.1" });
  });

  it("30 wrong passwords for one account, each with a new X-Forwarded-For, are throttled after 10", async () => {
    const base = await startEntry();
    const email = await newUser();
    const statuses = [];
    for (let i = 0; i < 30; i++) statuses.push(await signIn(base, email, `wrong ${i}`, `203.0.113.${i + 1}`));
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(20).fill(429));
  });

  it("an account blocked for one address cannot sign in from a forged 'new' address", async () => {
    const base = await startEntry();
    const email = await newUser();
    for (let i = 0; i < 10; i++) expect(await signIn(base, email, `wrong ${i}`)).toBe(401);
    expect(await signIn(base, email, PASSWORD)).toBe(429);
    for (const forged of ["198.51.100.77", "198.51.100.78, 127.0.0.1", "::1"]) expect(await signIn(base, email, PASSWORD, forged)).toBe(429);
  });

  it("the per-address REST limit holds against key guessing with a new X-Forwarded-For per request", async () => {
    const base = await startEntry();
    process.env.RATE_LIMIT_PER_SECOND = "3";
    reloadConfig();
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${base}/v1/management/health`, { headers: { "x-api-key": `rxm_guess_${i}`, "x-forwarded-for": `203.0.113.${i + 1}` } }).then((r) => r.status),
      ),
    );
    // Every key is new, so only the one address can refuse them.
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s !== 429).every((s) => s === 401)).toBe(true);
  });

  it("the per-address limit on .pkpass downloads holds with a new X-Forwarded-For per request", async () => {
    const templates = await createWalletTemplates(t);
    const { shopCustomerId } = await createCustomer(t);
    const issued = await post("/v1/management/wallet-passes", {
      key: t.keys.management,
      body: { wallet_pass_template_uid: templates.plain.id, shop_customer_id: shopCustomerId, shop_identifier: t.shop.identifier },
    });
    expect(issued.status).toBe(201);
    const base = await startEntry();
    process.env.RATE_LIMIT_PER_SECOND = "2";
    reloadConfig();
    const { pathname } = new URL(issued.json.ios_download_url as string);
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => fetch(`${base}${pathname}`, { headers: { "x-forwarded-for": `203.0.113.${i + 1}` } }).then((r) => r.status)),
    );
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s !== 429).every((s) => s === 200)).toBe(true);
  });
});

describe("behind trusted proxies", () => {
  it("the rightmost hop the trusted proxies did not append is the address; what the client wrote left of it is not", async () => {
    // The test client is the last proxy (loopback); 10.0.0.1 a proxy before it; 198.51.100.30 the client.
    const base = await startEntry(["loopback", "10.0.0.1"]);
    const echo = async (chain: string) => (await (await fetch(`${base}/echo`, { headers: { "x-forwarded-for": chain } })).json()) as { seen: string };
    expect(await echo("198.51.100.30, 10.0.0.1")).toEqual({ seen: "198.51.100.30", counted: "198.51.100.30" });
    expect(await echo("203.0.113.1, 198.51.100.30, 10.0.0.1")).toEqual({ seen: "198.51.100.30", counted: "198.51.100.30" });

    const email = await newUser();
    for (let i = 0; i < 10; i++) expect(await signIn(base, email, `wrong ${i}`, `203.0.113.${i + 1}, 198.51.100.30, 10.0.0.1`)).toBe(401);
    expect(await signIn(base, email, PASSWORD, "198.51.100.30, 10.0.0.1")).toBe(429);
    expect(await signIn(base, email, PASSWORD, "203.0.113.99, 198.51.100.30, 10.0.0.1")).toBe(429);
    // Another client behind the same proxies is another address.
    expect(await signIn(base, email, PASSWORD, "198.51.100.31, 10.0.0.1")).toBe(200);
  });
});
