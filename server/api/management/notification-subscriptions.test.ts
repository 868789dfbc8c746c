import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { reloadConfig } from "@/server/config";
import { openSecret } from "@/server/domain/webhooks/secret-box";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { BLOCKED_TARGET_MESSAGE, EMBEDDED_IPV4_TARGETS } from "@/tests/ssrf";
import { call, del, get, post } from "@/tests/http";

const BASE = "/v1/management/notification-subscriptions";
const TARGET = "https://93.184.215.14/org-hook";
const EVENT_TYPES = [
  "pharmacy_order_created",
  "pharmacy_order_updated",
  "pharmacy_sku_stock_updated",
  "appointment_reminder_due",
  "patient_doctor_meeting_updated",
  // The real product's order and prescription events (docs/decisions/webhooks.md#order-and-prescription-events).
  "order_created",
  "order_updated",
  "prescription_created",
  "prescription_updated",
];

let t: Tenant;
let other: Tenant;

/** A real HTTP receiver on loopback that records each request's raw bytes and headers. */
type Received = { path: string; headers: IncomingHttpHeaders; raw: Buffer };
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let answerStatus = 200;

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, raw: Buffer.concat(chunks) });
      response.writeHead(answerStatus, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  receiver.closeAllConnections(); // keep-alive sockets of the webhook agent would hold close() open
  await new Promise((resolve) => receiver.close(resolve));
});

afterEach(() => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  reloadConfig();
  received.length = 0;
  answerStatus = 200;
});

function allowPrivateTargets() {
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
  reloadConfig();
}

const register = (body: Record<string, unknown>, key = t.keys.management) =>
  post(BASE, { key, body: { notification_type: "pharmacy_order_created", target: TARGET, ...body } });

const rowOf = (id: string) => t.db.webhookSubscription.findUniqueOrThrow({ where: { id } });
const uids = (r: { json: { data: { uid: string }[] } }) => r.json.data.map((s) => s.uid);
const hmac = (secret: string, raw: Buffer) => createHmac("sha256", Buffer.from(secret, "utf8")).update(raw).digest("hex");

describe("register and list", () => {
  it("returns the secret once; the list is paginated, without secret or header_value", async () => {
    const r = await register({
      target: `${TARGET}/once`,
      header_key: "X-Partner-Auth",
      header_value: "partner-token-9",
      meta_data: { team: "fulfilment", priority: 1 },
    });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({
      uid: expect.any(String),
      notification_type: "pharmacy_order_created",
      target: `${TARGET}/once`,
      options: "WEBHOOK",
      payload_version: "1",
      header_key: "X-Partner-Auth",
      meta_data: { team: "fulfilment", priority: 1 },
      webhook_secret: expect.stringMatching(/^whsec_/),
    });
    const list = await get(`${BASE}/`, { key: t.keys.management, query: { limit: 1000 } });
    expect(list.status).toBe(200);
    expect(list.json.data).toContainEqual({
      uid: r.json.uid,
      notification_type: "pharmacy_order_created",
      target: `${TARGET}/once`,
      options: "WEBHOOK",
      payload_version: "1",
      header_key: "X-Partner-Auth",
      meta_data: { team: "fulfilment", priority: 1 },
    });
    expect(list.text).not.toContain(r.json.webhook_secret);
    expect(list.text).not.toContain("partner-token-9");
    expect(list.text).not.toContain("webhook_secret");
    expect(list.text).not.toContain("header_value");
  });

  it("stores the secret and the header value only sealed", async () => {
    const r = await register({ target: `${TARGET}/sealed`, header_key: "Authorization", header_value: "Bearer org-sealed-7" });
    const row = await rowOf(r.json.uid);
    const raw = JSON.stringify(row);
    expect(raw).not.toContain(r.json.webhook_secret);
    expect(raw).not.toContain(r.json.webhook_secret.slice(6));
    expect(raw).not.toContain("org-sealed-7");
    expect(openSecret(row.secretEncrypted)).toBe(r.json.webhook_secret);
    expect(openSecret(row.headerValueEncrypted!)).toBe("Bearer org-sealed-7");
    expect(row).toMatchObject({ scope: "ORGANISATION", organisationId: t.organisation.id, pharmacyId: null });
  });

  it("accepts every event type (the spec's five, the order and prescription events) with defaults: payload_version 1, no header, meta_data null", async () => {
    for (const type of EVENT_TYPES) {
      const r = await register({ notification_type: type, target: `${TARGET}/types` });
      expect(r.status, type).toBe(201);
      expect(r.json).toMatchObject({ notification_type: type, payload_version: "1", header_key: null, meta_data: null });
    }
  });

  it("re-registering keeps the uid, issues a new secret and replaces header, meta_data and payload_version", async () => {
    const target = `${TARGET}/upsert`;
    const first = await register({ target, header_key: "X-One", header_value: "one", meta_data: { a: 1 } });
    const second = await register({ target, header_key: "X-Two", header_value: "two", payload_version: "1" });
    expect(second.status).toBe(201);
    expect(second.json).toMatchObject({ uid: first.json.uid, header_key: "X-Two", meta_data: null });
    expect(second.json.webhook_secret).not.toBe(first.json.webhook_secret);
    let row = await rowOf(first.json.uid);
    expect(openSecret(row.secretEncrypted)).toBe(second.json.webhook_secret);
    expect(openSecret(row.headerValueEncrypted!)).toBe("two");
    const third = await register({ target, meta_data: { b: 2 } });
    expect(third.json).toMatchObject({ uid: first.json.uid, header_key: null, meta_data: { b: 2 } });
    row = await rowOf(first.json.uid);
    expect([row.headerKey, row.headerValueEncrypted]).toEqual([null, null]);
    // The same target and type in another organisation is that organisation's own subscription.
    const theirs = await register({ target }, other.keys.management);
    expect(theirs.json.uid).not.toBe(first.json.uid);
  });

  it("ten concurrent identical registrations end with one live row", async () => {
    const target = `${TARGET}/concurrent`;
    const results = await Promise.all(Array.from({ length: 10 }, () => register({ target })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.json.uid)).size).toBe(1);
    const rows = await t.db.webhookSubscription.findMany({ where: { organisationId: t.organisation.id, target, deletedAt: null } });
    expect(rows).toHaveLength(1);
  });

  it("lists with the spec's envelope and honours page and limit, oldest first", async () => {
    for (const n of [1, 2, 3]) expect((await register({ target: `${TARGET}/paged-${n}` })).status).toBe(201);
    const all = (await get(BASE, { key: t.keys.management, query: { limit: 1000 } })).json;
    const uidsOf = (page: { data: { uid: string }[] }) => page.data.map((s) => s.uid);
    const first = (await get(BASE, { key: t.keys.management, query: { page: 0, limit: 2 } })).json;
    const second = (await get(BASE, { key: t.keys.management, query: { page: 1, limit: 2 } })).json;
    expect(first).toMatchObject({ totalRegistries: all.totalRegistries, totalPages: Math.ceil(all.totalRegistries / 2) });
    expect([...uidsOf(first), ...uidsOf(second)]).toEqual(uidsOf(all).slice(0, 4));
    expect((await get(BASE, { key: t.keys.management, query: { page: -1 } })).status).toBe(400);
  });

  it("lists only the organisation's own organisation-level subscriptions", async () => {
    const mine = await register({ target: `${TARGET}/listing` });
    const theirs = await register({ target: `${TARGET}/listing` }, other.keys.management);
    const pharmacySub = await post("/v1/external_pharmacy_api/webhooks", {
      key: t.keys.pharmacy,
      body: { notification_type: "pharmacy_order_created", target: `${TARGET}/listing` },
    });
    expect(pharmacySub.status).toBe(201);
    const list = uids(await get(BASE, { key: t.keys.management, query: { limit: 1000 } }));
    expect(list).toContain(mine.json.uid);
    expect(list).not.toContain(theirs.json.uid);
    expect(list).not.toContain(pharmacySub.json.uid);
    // Nor can the Management API delete a pharmacy's subscription.
    expect((await del(`${BASE}/${pharmacySub.json.uid}`, { key: t.keys.management })).status).toBe(404);
  });
});

describe("validation", () => {
  it("refuses unknown event types and payload versions", async () => {
    const type = await register({ notification_type: "order_deleted" });
    expect(type.status).toBe(400);
    expect(type.json).toEqual({ error: { notification_type: [`Must be one of: ${EVENT_TYPES.join(", ")}.`] } });
    const version = await register({ payload_version: "2" });
    expect(version.json).toEqual({ error: { payload_version: ["Must be one of: 1."] } });
    expect((await register({ meta_data: "text" })).json.error).toHaveProperty("meta_data");
    expect((await register({ meta_data: { big: "x".repeat(17 * 1024) } })).json.error).toHaveProperty("meta_data");
    let deep: Record<string, unknown> = { level: 11 };
    for (let i = 0; i < 10; i++) deep = { a: deep };
    expect((await register({ meta_data: deep })).json.error).toEqual({ meta_data: ["Nested too deeply: at most 10 levels."] });
  });

  it("refuses malformed and private targets unless private targets are allowed", async () => {
    for (const target of ["ftp://93.184.215.14/", "/hook", "https://a:b@93.184.215.14/"]) {
      const r = await register({ target });
      expect(r.status, target).toBe(400);
      expect(Object.keys(r.json.error)).toEqual(["target"]);
    }
    const privateTargets = ["http://127.0.0.1:9/", "http://10.0.0.1/", "http://169.254.169.254/latest/meta-data", "http://[::1]/"];
    for (const target of privateTargets) expect((await register({ target })).status, target).toBe(400);
    allowPrivateTargets();
    for (const target of privateTargets) expect((await register({ target })).status, target).toBe(201);
  });

  it("refuses IPv6 forms that embed a loopback, private or metadata IPv4 address, for subscriptions and test sends", async () => {
    for (const target of EMBEDDED_IPV4_TARGETS) {
      const r = await register({ target });
      expect([r.status, r.json.error], target).toEqual([400, { target: [BLOCKED_TARGET_MESSAGE] }]);
      const sent = await post(`${BASE}/test`, { key: t.keys.management, body: { target, notification_type: "pharmacy_order_created" } });
      expect([sent.status, sent.json.error], target).toEqual([400, { target: [BLOCKED_TARGET_MESSAGE] }]);
    }
  });

  it("checks the custom header", async () => {
    expect((await register({ header_key: "X-Token" })).json).toEqual({ error: { header_value: ["Required when header_key is set."] } });
    expect((await register({ header_key: "x-webhook-event", header_value: "v" })).json.error.header_key[0]).toMatch(/set by the service/);
    expect((await register({ header_key: "X-Token", header_value: "a\r\nb" })).status).toBe(400);
  });

  it("answers invalid JSON and other content types in the family's shape", async () => {
    const badJson = await call("POST", BASE, { key: t.keys.management, raw: "{", headers: { "content-type": "application/json" } });
    expect([badJson.status, badJson.json]).toEqual([400, { error: "Invalid JSON in request body" }]);
    const text = await call("POST", BASE, { key: t.keys.management, raw: "{}", headers: { "content-type": "text/plain" } });
    expect([text.status, text.json]).toEqual([400, { error: "Content-Type must be application/json" }]);
  });
});

describe("authentication and delete", () => {
  it("needs only a valid Management key, no permission", async () => {
    const key = t.keys.managementNoPermissions;
    const created = await register({ target: `${TARGET}/no-permissions` }, key);
    expect(created.status).toBe(201);
    expect(uids(await get(BASE, { key, query: { limit: 1000 } }))).toContain(created.json.uid);
    expect((await del(BASE, { key, body: { uid: created.json.uid } })).status).toBe(204);
    expect((await get(BASE)).status).toBe(401);
    expect((await get(BASE, { key: t.keys.pharmacy })).json.code).toBe("invalid_api_key");
  });

  it("deletes by body uid, by ?uid= and by path", async () => {
    const a = await register({ target: `${TARGET}/del-a` });
    const b = await register({ target: `${TARGET}/del-b` });
    const c = await register({ target: `${TARGET}/del-c` });
    const byBody = await del(BASE, { key: t.keys.management, body: { uid: a.json.uid } });
    expect([byBody.status, byBody.text]).toEqual([204, ""]);
    expect((await del(`${BASE}/`, { key: t.keys.management, query: { uid: b.json.uid } })).status).toBe(204);
    expect((await del(`${BASE}/${c.json.uid}`, { key: t.keys.management })).status).toBe(204);
    const list = uids(await get(BASE, { key: t.keys.management, query: { limit: 1000 } }));
    for (const r of [a, b, c]) {
      expect(list).not.toContain(r.json.uid);
      expect((await rowOf(r.json.uid)).deletedAt).toBeInstanceOf(Date);
    }
    const again = await del(BASE, { key: t.keys.management, body: { uid: a.json.uid } });
    expect([again.status, again.json]).toEqual([404, { error: "Resource not found" }]);
  });

  it("asks for the uid when none or two different ones are given", async () => {
    const missing = await del(BASE, { key: t.keys.management });
    expect([missing.status, missing.json]).toEqual([400, { error: { uid: ["This field is required."] } }]);
    const differ = await del(BASE, { key: t.keys.management, body: { uid: "a" }, query: { uid: "b" } });
    expect(differ.status).toBe(400);
  });

  it("another organisation's key cannot delete a subscription", async () => {
    const mine = await register({ target: `${TARGET}/protected` });
    const byBody = await del(BASE, { key: other.keys.management, body: { uid: mine.json.uid } });
    expect([byBody.status, byBody.json]).toEqual([404, { error: "Resource not found" }]);
    expect((await del(`${BASE}/${mine.json.uid}`, { key: other.keys.management })).status).toBe(404);
    expect((await rowOf(mine.json.uid)).deletedAt).toBeNull();
    expect(uids(await get(BASE, { key: t.keys.management, query: { limit: 1000 } }))).toContain(mine.json.uid);
  });
});

describe("test deliveries", () => {
  const sendTest = (body: Record<string, unknown>, key = t.keys.management) => post(`${BASE}/test`, { key, body });

  it("signs the sample with the secret of the matching subscription and sends its custom header", async () => {
    allowPrivateTargets();
    const target = `${receiverUrl}/signed`;
    const sub = await register({ target, notification_type: "pharmacy_order_updated", header_key: "X-Partner-Auth", header_value: "tok-1" });
    expect(sub.status).toBe(201);
    const before = Math.floor(Date.now() / 1000);
    const r = await sendTest({ target, notification_type: "pharmacy_order_updated" });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ delivered: true, status_code: 200, signed: true, duration_ms: expect.any(Number), error: null });

    expect(received).toHaveLength(1);
    const [{ headers, raw, path }] = received;
    expect(path).toBe("/signed");
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["x-webhook-test"]).toBe("true");
    expect(headers["x-webhook-event"]).toBe("pharmacy_order_updated");
    expect(headers["x-partner-auth"]).toBe("tok-1");
    expect(headers["x-webhook-signature"]).toMatch(/^[0-9a-f]{64}$/);
    expect(headers["x-webhook-signature"]).toBe(hmac(sub.json.webhook_secret, raw));

    const envelope = JSON.parse(raw.toString("utf8"));
    expect(Object.keys(envelope)).toEqual(["event_type", "timestamp", "payload_version", "data"]);
    expect(envelope).toMatchObject({ event_type: "pharmacy_order_updated", payload_version: "1" });
    expect(envelope.timestamp).toBeGreaterThanOrEqual(before);
    expect(envelope.timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    // An organisation-level sample: shop ids and the fulfillment, no prescription_file.
    expect(envelope.data).toMatchObject({ uid: expect.any(String), status: "in-progress", shipments: expect.any(Array), prepaid: 0 });
    expect(envelope.data.order.shipping_costs_amount).toEqual(expect.any(Number));
    expect(envelope.data.order_items[0].sku).toHaveProperty("shop_variation_id");
    expect(envelope.data).toHaveProperty("fulfillment");
    expect(envelope.data).not.toHaveProperty("prescription_file");
  });

  it("sends signed samples of the order and prescription events, with what changed", async () => {
    allowPrivateTargets();
    for (const type of ["order_created", "order_updated", "prescription_created", "prescription_updated"]) {
      received.length = 0;
      const target = `${receiverUrl}/sample-${type}`;
      const sub = await register({ target, notification_type: type });
      const r = await sendTest({ target, notification_type: type });
      expect(r.json, type).toMatchObject({ delivered: true, signed: true });
      const [{ headers, raw }] = received;
      expect(headers["x-webhook-signature"]).toBe(hmac(sub.json.webhook_secret, raw));
      const { data } = JSON.parse(raw.toString("utf8"));
      expect(data.uid, type).toEqual(expect.any(String));
      expect("change" in data, type).toBe(type.endsWith("_updated"));
    }
  });

  it("re-registration changes the signing secret at once", async () => {
    allowPrivateTargets();
    const target = `${receiverUrl}/rotated`;
    await register({ target });
    const rotated = await register({ target });
    await sendTest({ target, notification_type: "pharmacy_order_created" });
    expect(received[0].headers["x-webhook-signature"]).toBe(hmac(rotated.json.webhook_secret, received[0].raw));
  });

  it("is unsigned when no subscription matches the target and event type", async () => {
    allowPrivateTargets();
    const target = `${receiverUrl}/unsigned`;
    await register({ target, notification_type: "pharmacy_order_created" });
    const otherType = await sendTest({ target, notification_type: "pharmacy_sku_stock_updated" });
    expect(otherType.json).toMatchObject({ delivered: true, status_code: 200, signed: false });
    const otherTarget = await sendTest({ target: `${target}/elsewhere`, notification_type: "pharmacy_order_created" });
    expect(otherTarget.json.signed).toBe(false);
    // Another organisation's subscription with this target does not sign this organisation's tests.
    await register({ target: `${receiverUrl}/theirs` }, other.keys.management);
    expect((await sendTest({ target: `${receiverUrl}/theirs`, notification_type: "pharmacy_order_created" })).json.signed).toBe(false);
    expect(received).toHaveLength(3);
    for (const r of received) {
      expect(r.headers).not.toHaveProperty("x-webhook-signature");
      expect(r.headers["x-webhook-test"]).toBe("true");
    }
    const stock = JSON.parse(received[0].raw.toString("utf8"));
    expect(stock).toMatchObject({ event_type: "pharmacy_sku_stock_updated", data: { shop_identifier: expect.any(String) } });
  });

  it("sends a sample of every event type", async () => {
    allowPrivateTargets();
    for (const type of EVENT_TYPES) {
      const r = await sendTest({ target: `${receiverUrl}/all`, notification_type: type });
      expect(r.json.delivered, type).toBe(true);
    }
    expect(received.map((r) => JSON.parse(r.raw.toString("utf8")).event_type)).toEqual(EVENT_TYPES);
    const meeting = JSON.parse(received[4].raw.toString("utf8")).data;
    expect(meeting).toMatchObject({ meeting_uid: expect.any(String), change: "confirmed" });
    const reminder = JSON.parse(received[3].raw.toString("utf8")).data;
    expect(reminder).toMatchObject({ recipient_role: "patient", rebook_allowed: true, cancel_allowed: true });
  });

  it("reports a receiver's failure status", async () => {
    allowPrivateTargets();
    answerStatus = 500;
    const r = await sendTest({ target: `${receiverUrl}/failing`, notification_type: "pharmacy_order_created" });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ delivered: false, status_code: 500, signed: false, duration_ms: expect.any(Number), error: "HTTP 500." });
  });

  it("reports a connection failure", async () => {
    allowPrivateTargets();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const r = await sendTest({ target: `http://127.0.0.1:${port}/`, notification_type: "pharmacy_order_created" });
    expect(r.json).toMatchObject({ delivered: false, status_code: null, signed: false, error: expect.stringMatching(/^Connection failed/) });
  });

  it("refuses a private target without WEBHOOK_ALLOW_PRIVATE_TARGETS, and bad input", async () => {
    const blocked = await sendTest({ target: `${receiverUrl}/blocked`, notification_type: "pharmacy_order_created" });
    expect(blocked.status).toBe(400);
    expect(Object.keys(blocked.json.error)).toEqual(["target"]);
    expect(received).toHaveLength(0);
    const badType = await sendTest({ target: TARGET, notification_type: "nope" });
    expect([badType.status, Object.keys(badType.json.error)]).toEqual([400, ["notification_type"]]);
    const missing = await sendTest({});
    expect(missing.json).toEqual({ error: { notification_type: ["This field is required."], target: ["This field is required."] } });
  });

  it("needs only a valid key", async () => {
    allowPrivateTargets();
    const r = await sendTest({ target: `${receiverUrl}/any-key`, notification_type: "pharmacy_order_created" }, t.keys.managementNoPermissions);
    expect(r.json.delivered).toBe(true);
    expect((await post(`${BASE}/test`, { body: {} })).status).toBe(401);
  });
});
