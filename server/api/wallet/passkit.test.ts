import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import * as passkitRoute from "@/app/wallet/passkit/[...path]/route";
import { passkitAuthenticationToken } from "@/server/domain/wallet-passes/secrets";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { del, oversizedStream, post } from "@/tests/http";
import { createCustomer, createWalletTemplates } from "@/tests/wallet-passes";

const TYPE = "pass.example.rx-sandbox";
let t: Tenant;
let templates: Awaited<ReturnType<typeof createWalletTemplates>>;
beforeAll(async () => {
  t = await createTenant();
  templates = await createWalletTemplates(t);
});

type Pass = { uid: string; token: string };

/** Issues a pass; its authenticationToken is the one its .pkpass carries (pass-download.test.ts). */
async function issuePass(): Promise<Pass> {
  const { shopCustomerId } = await createCustomer(t);
  const r = await post("/v1/management/wallet-passes", {
    key: t.keys.management,
    body: { wallet_pass_template_uid: templates.plain.id, shop_customer_id: shopCustomerId, shop_identifier: t.shop.identifier },
  });
  expect(r.status).toBe(201);
  return { uid: r.json.uid, token: passkitAuthenticationToken(r.json.uid) };
}

/** A request to the web service through the app route, as Next.js calls it. */
async function call(method: string, path: string, options: { token?: string; body?: unknown; raw?: BodyInit; headers?: Record<string, string> } = {}) {
  const url = `http://localhost:3000/wallet/passkit${path}`;
  const headers = new Headers(options.headers);
  if (options.token) headers.set("authorization", `ApplePass ${options.token}`);
  if (options.body !== undefined) headers.set("content-type", "application/json");
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const request = new Request(url, { method, headers, body, ...(options.raw instanceof ReadableStream ? { duplex: "half" } : {}) } as RequestInit);
  // Next.js hands the route its segments decoded.
  const segments = new URL(url).pathname.split("/").slice(3).map(decodeURIComponent);
  const handler = passkitRoute[method as "GET" | "POST" | "DELETE"];
  return handler(request, { params: Promise.resolve({ path: segments }) });
}

const register = (device: string, pass: Pass, pushToken = "0123abcd", token = pass.token) =>
  call("POST", `/v1/devices/${device}/registrations/${TYPE}/${pass.uid}`, { token, body: { pushToken } });

describe("the PassKit web service", () => {
  it("registers a device: 201 new, 200 again (push token replaced), 401 with a wrong or missing token or pass type", async () => {
    const pass = await issuePass();
    const other = await issuePass();
    expect((await register("device-a", pass)).status).toBe(201);
    expect((await register("device-a", pass, "ffff0000")).status).toBe(200);
    const rows = await t.db.walletPassDevice.findMany({ where: { walletPassId: pass.uid } });
    expect(rows.map((r) => [r.deviceLibraryIdentifier, r.pushToken])).toEqual([["device-a", "ffff0000"]]);

    expect((await register("device-b", pass, "0123", other.token)).status).toBe(401);
    expect((await call("POST", `/v1/devices/device-b/registrations/${TYPE}/${pass.uid}`, { body: { pushToken: "0123" } })).status).toBe(401);
    expect((await call("POST", `/v1/devices/device-b/registrations/pass.other/${pass.uid}`, { token: pass.token, body: { pushToken: "0123" } })).status).toBe(401);
    expect((await register("device-b", pass, "not a token!")).status).toBe(400);
    expect(await t.db.walletPassDevice.count({ where: { deviceLibraryIdentifier: "device-b" } })).toBe(0);
  });

  it("registers concurrently without doubles", async () => {
    const pass = await issuePass();
    const results = await Promise.all(Array.from({ length: 6 }, () => register("device-c", pass)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(await t.db.walletPassDevice.count({ where: { walletPassId: pass.uid } })).toBe(1);
  });

  it("lists the device's passes updated since a tag (204 when none) and unregisters with DELETE", async () => {
    const first = await issuePass();
    const second = await issuePass();
    await register("device-d", first);
    await register("device-d", second);
    const all = await call("GET", `/v1/devices/device-d/registrations/${TYPE}`);
    expect(all.status).toBe(200);
    const listed = await all.json();
    expect(listed.serialNumbers.sort()).toEqual([first.uid, second.uid].sort());
    expect(listed.lastUpdated).toMatch(/^\d+$/);
    expect((await call("GET", `/v1/devices/device-d/registrations/${TYPE}?passesUpdatedSince=${listed.lastUpdated}`)).status).toBe(204);

    // A push notification's message changes the pass: it is listed as updated.
    await t.db.walletPass.update({ where: { id: second.uid }, data: { lastMessage: "New" } });
    const changed = await call("GET", `/v1/devices/device-d/registrations/${TYPE}?passesUpdatedSince=${listed.lastUpdated}`);
    expect((await changed.json()).serialNumbers).toEqual([second.uid]);

    expect((await call("DELETE", `/v1/devices/device-d/registrations/${TYPE}/${first.uid}`, { token: second.token })).status).toBe(401);
    expect((await call("DELETE", `/v1/devices/device-d/registrations/${TYPE}/${first.uid}`, { token: first.token })).status).toBe(200);
    expect((await (await call("GET", `/v1/devices/device-d/registrations/${TYPE}`)).json()).serialNumbers).toEqual([second.uid]);
    expect((await call("GET", `/v1/devices/unknown-device/registrations/${TYPE}`)).status).toBe(204);
  });

  it("serves the latest .pkpass to an authorised request (304 when not modified since), a deleted pass voided", async () => {
    const pass = await issuePass();
    const latest = await call("GET", `/v1/passes/${TYPE}/${pass.uid}`, { token: pass.token });
    expect(latest.status).toBe(200);
    expect(latest.headers.get("content-type")).toBe("application/vnd.apple.pkpass");
    const lastModified = latest.headers.get("last-modified")!;
    const passJson = JSON.parse(Buffer.from(unzipSync(new Uint8Array(await latest.arrayBuffer()))["pass.json"]).toString("utf8"));
    expect(passJson).toMatchObject({ serialNumber: pass.uid, voided: false });
    expect((await call("GET", `/v1/passes/${TYPE}/${pass.uid}`, { token: pass.token, headers: { "if-modified-since": lastModified } })).status).toBe(304);
    expect((await call("GET", `/v1/passes/${TYPE}/${pass.uid}`)).status).toBe(401);
    expect((await call("GET", `/v1/passes/${TYPE}/${pass.uid}`, { token: "wrong" })).status).toBe(401);

    await del(`/v1/management/wallet-passes/${pass.uid}`, { key: t.keys.management });
    const voided = await call("GET", `/v1/passes/${TYPE}/${pass.uid}`, { token: pass.token });
    expect(voided.status).toBe(200);
    expect(JSON.parse(Buffer.from(unzipSync(new Uint8Array(await voided.arrayBuffer()))["pass.json"]).toString("utf8")).voided).toBe(true);
    // A deleted pass takes no new registrations.
    expect((await register("device-e", pass)).status).toBe(401);
  });

  it("accepts device logs, and answers unknown paths with the HTML 404", async () => {
    expect((await call("POST", "/v1/log", { body: { logs: ["[2026-11-23] Web service error"] } })).status).toBe(200);
    expect((await call("POST", "/v1/log", { body: { logs: "x" } })).status).toBe(400);
    expect((await call("GET", "/v2/passes/x/y")).status).toBe(404);
    expect((await call("GET", "/v1/unknown")).status).toBe(404);
  });

  it("refuses path identifiers no device sends with a 400 naming them, before the database sees them", async () => {
    const pass = await issuePass();
    const long = "a".repeat(5_000);
    // Without authentication: the device's pass list.
    for (const device of ["dev%00ice", long, "dev%20ice", "d%C3%A9vice"]) {
      const r = await call("GET", `/v1/devices/${device}/registrations/${TYPE}`);
      expect(r.status, device.slice(0, 20)).toBe(400);
      expect(await r.text()).toBe("Invalid deviceLibraryIdentifier.\n");
    }
    expect((await call("GET", `/v1/devices/device-x/registrations/pass.a%00b`)).status).toBe(400);
    // With the pass's token: registration, unregistration, the latest pass.
    expect((await register(long, pass)).status).toBe(400);
    expect((await register("dev%00ice", pass)).status).toBe(400);
    expect((await call("DELETE", `/v1/devices/${long}/registrations/${TYPE}/${pass.uid}`, { token: pass.token })).status).toBe(400);
    expect((await call("POST", `/v1/devices/device-x/registrations/${TYPE}/${"s".repeat(5_000)}`, { token: pass.token, body: { pushToken: "0123" } })).status).toBe(400);
    expect((await call("GET", `/v1/passes/${TYPE}/ser%00ial`, { token: pass.token })).status).toBe(400);
    expect((await call("GET", `/v1/passes/not-a-pass-type/${pass.uid}`, { token: pass.token })).status).toBe(400);
    expect(await t.db.walletPassDevice.count({ where: { walletPassId: pass.uid } })).toBe(0);
    // A real device's identifier (32 hexadecimal digits) still registers.
    expect((await register("0f1e2d3c4b5a69788796a5b4c3d2e1f0", pass)).status).toBe(201);
  });

  it("refuses a body over its cap with 413 and stops reading it", async () => {
    // A few MiB offered as a stream; the reader stops soon after the 256 KiB cap.
    const { stream, pulled } = oversizedStream();
    const r = await call("POST", "/v1/log", { raw: stream, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(413);
    expect(r.headers.get("connection")).toBe("close");
    expect(pulled()).toBeLessThan(10);
    // Declared too large: refused before reading.
    const declared = await call("POST", "/v1/log", { raw: "{}", headers: { "content-type": "application/json", "content-length": String(300 * 1024) } });
    expect(declared.status).toBe(413);
  });
});
