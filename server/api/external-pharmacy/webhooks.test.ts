import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { reloadConfig } from "@/server/config";
import { openSecret } from "@/server/domain/webhooks/secret-box";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { BLOCKED_TARGET_MESSAGE, EMBEDDED_IPV4_TARGETS } from "@/tests/ssrf";
import { call, del, get, post } from "@/tests/http";

const BASE = "/v1/external_pharmacy_api/webhooks";
const TARGET = "https://93.184.215.14/hook";

let t: Tenant;
let other: Tenant;
let readOnlyKey: string;
let writeOnlyKey: string;
beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  const key = async (permissions: string[]) =>
    (
      await createApiKey({
        family: "PHARMACY",
        displayName: permissions.join(","),
        permissions,
        organisationId: t.organisation.id,
        pharmacyId: t.pharmacy.id,
      })
    ).plaintext;
  readOnlyKey = await key(["webhooks_read"]);
  writeOnlyKey = await key(["webhooks_write"]);
});

afterEach(() => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  reloadConfig();
});

function allowPrivateTargets() {
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
  reloadConfig();
}

const register = (body: Record<string, unknown>, key = t.keys.pharmacy, query?: Record<string, string>) =>
  post(`${BASE}/`, { key, body: { notification_type: "pharmacy_order_created", target: TARGET, ...body }, query });

const rowOf = (id: string) => t.db.webhookSubscription.findUniqueOrThrow({ where: { id } });
const liveRows = (where: Record<string, unknown>) => t.db.webhookSubscription.findMany({ where: { ...where, deletedAt: null } });

describe("register", () => {
  it("returns the secret once; the list never shows the secret or header_value", async () => {
    const r = await register({ target: `${TARGET}/once`, header_key: "X-Partner-Auth", header_value: "Bearer partner-token-1" });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({
      uid: expect.any(String),
      notification_type: "pharmacy_order_created",
      target: `${TARGET}/once`,
      pharmacy_uid: t.pharmacy.id,
      header_key: "X-Partner-Auth",
      webhook_secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });
    const list = await get(BASE, { key: t.keys.pharmacy, query: { limit: 1000 } });
    expect(list.status).toBe(200);
    expect(Object.keys(list.json).sort()).toEqual(["data", "totalPages", "totalRegistries"]);
    const entry = list.json.data.find((s: { uid: string }) => s.uid === r.json.uid);
    expect(entry).toEqual({
      uid: r.json.uid,
      notification_type: "pharmacy_order_created",
      target: `${TARGET}/once`,
      pharmacy_uid: t.pharmacy.id,
      header_key: "X-Partner-Auth",
    });
    expect(list.text).not.toContain(r.json.webhook_secret);
    expect(list.text).not.toContain("partner-token-1");
    expect(list.text).not.toContain("webhook_secret");
    expect(list.text).not.toContain("header_value");
  });

  it("stores the secret and the header value only sealed", async () => {
    const r = await register({ target: `${TARGET}/sealed`, header_key: "Authorization", header_value: "Bearer sealed-value-42" });
    const row = await rowOf(r.json.uid);
    const raw = JSON.stringify(row);
    expect(raw).not.toContain(r.json.webhook_secret);
    expect(raw).not.toContain(r.json.webhook_secret.slice(6));
    expect(raw).not.toContain("sealed-value-42");
    expect(row.secretEncrypted).toMatch(/^v1\./);
    expect(openSecret(row.secretEncrypted)).toBe(r.json.webhook_secret);
    expect(openSecret(row.headerValueEncrypted!)).toBe("Bearer sealed-value-42");
    expect(row).toMatchObject({ scope: "PHARMACY", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id, payloadVersion: "1" });
  });

  it("re-registering keeps the uid, issues a new secret and replaces or removes the custom header", async () => {
    const target = `${TARGET}/upsert`;
    const first = await register({ target, header_key: "X-One", header_value: "one" });
    const second = await register({ target, header_key: "X-Two", header_value: "two" });
    expect(second.status).toBe(201);
    expect(second.json.uid).toBe(first.json.uid);
    expect(second.json.webhook_secret).not.toBe(first.json.webhook_secret);
    expect(second.json.header_key).toBe("X-Two");
    let row = await rowOf(first.json.uid);
    expect(openSecret(row.secretEncrypted)).toBe(second.json.webhook_secret);
    expect(row.headerKey).toBe("X-Two");
    expect(openSecret(row.headerValueEncrypted!)).toBe("two");

    const third = await register({ target });
    expect(third.json).toMatchObject({ uid: first.json.uid, header_key: null });
    row = await rowOf(first.json.uid);
    expect(row.headerKey).toBeNull();
    expect(row.headerValueEncrypted).toBeNull();
    expect(openSecret(row.secretEncrypted)).toBe(third.json.webhook_secret);

    // Another event type or target is another subscription.
    const otherType = await register({ target, notification_type: "pharmacy_order_updated" });
    expect(otherType.json.uid).not.toBe(first.json.uid);
    expect(await liveRows({ target })).toHaveLength(2);
  });

  it("ten concurrent identical registrations end with one live row", async () => {
    const target = `${TARGET}/concurrent`;
    const results = await Promise.all(Array.from({ length: 10 }, () => register({ target })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.json.uid)).size).toBe(1);
    const rows = await liveRows({ target, pharmacyId: t.pharmacy.id });
    expect(rows).toHaveLength(1);
    // The secret in force is one of those handed out.
    expect(results.map((r) => r.json.webhook_secret)).toContain(openSecret(rows[0].secretEncrypted));
  });

  it("registering again after a delete creates a new subscription", async () => {
    const target = `${TARGET}/after-delete`;
    const first = await register({ target });
    expect((await del(`${BASE}/${first.json.uid}`, { key: t.keys.pharmacy })).status).toBe(204);
    const second = await register({ target });
    expect(second.status).toBe(201);
    expect(second.json.uid).not.toBe(first.json.uid);
  });
});

describe("validation", () => {
  it("accepts the three pharmacy event types only, naming them", async () => {
    for (const type of ["pharmacy_order_created", "pharmacy_order_updated", "pharmacy_sku_stock_updated"]) {
      expect((await register({ notification_type: type, target: `${TARGET}/types` })).status).toBe(201);
    }
    // The organisation-only events, the order and prescription events among them, are the Management API's.
    for (const type of ["order_created", "order_updated", "prescription_created", "prescription_updated", "appointment_reminder_due", "patient_doctor_meeting_updated", ""]) {
      const r = await register({ notification_type: type });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({
        error: { notification_type: ["Must be one of: pharmacy_order_created, pharmacy_order_updated, pharmacy_sku_stock_updated."] },
      });
    }
    const missing = await post(BASE, { key: t.keys.pharmacy, body: { target: TARGET } });
    expect(missing.json).toEqual({ error: { notification_type: ["This field is required."] } });
  });

  it("refuses malformed targets", async () => {
    for (const target of ["ftp://93.184.215.14/hook", "/relative/hook", "hook", "https://user:pass@93.184.215.14/hook", "javascript:alert(1)", ""]) {
      const r = await register({ target });
      expect(r.status, target).toBe(400);
      expect(Object.keys(r.json.error), target).toEqual(["target"]);
    }
    expect((await register({ target: `https://93.184.215.14/${"a".repeat(2100)}` })).json.error.target).toHaveLength(1);
  });

  it("refuses targets with line breaks, tabs, spaces or other control characters (the URL parser would drop them)", async () => {
    const before = await liveRows({ pharmacyId: t.pharmacy.id });
    for (const target of ["https://93.184.215.14/a\r\nX-Injected: 1", "https://93.184.\n215.14/", "https://93.184.215.14/\ta", "https://93.184.215.14/a b", "https://93.184.215.14/\u0001", "https://93.184.215.14/\u0085"]) {
      const r = await register({ target });
      expect(r.status, JSON.stringify(target)).toBe(400);
      expect(r.json.error.target, JSON.stringify(target)).toEqual(["The URL must not contain spaces, line breaks or other control characters."]);
    }
    expect(await liveRows({ pharmacyId: t.pharmacy.id })).toEqual(before);
  });

  const privateTargets = [
    "http://127.0.0.1:8080/hook",
    "http://10.0.0.1/",
    "http://192.168.1.10/hook",
    "http://169.254.169.254/latest/meta-data",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://0.0.0.0/",
  ];

  it("refuses loopback, private, link-local and metadata targets", async () => {
    for (const target of privateTargets) {
      const r = await register({ target });
      expect(r.status, target).toBe(400);
      expect(r.json.error.target, target).toEqual(["The target resolves to a loopback, private, link-local or reserved address."]);
    }
    expect(await liveRows({ target: { in: privateTargets } })).toHaveLength(0);
  });

  it("refuses IPv6 forms that embed a loopback, private or metadata IPv4 address", async () => {
    for (const target of EMBEDDED_IPV4_TARGETS) {
      const r = await register({ target });
      expect(r.status, target).toBe(400);
      expect(r.json.error.target, target).toEqual([BLOCKED_TARGET_MESSAGE]);
    }
    expect(await liveRows({ target: { in: EMBEDDED_IPV4_TARGETS } })).toHaveLength(0);
  });

  it("allows them with WEBHOOK_ALLOW_PRIVATE_TARGETS", async () => {
    allowPrivateTargets();
    for (const target of privateTargets.slice(0, 5)) expect((await register({ target })).status, target).toBe(201);
  });

  it("refuses plain http on public addresses (deliveries carry patient data), unless WEBHOOK_ALLOW_PRIVATE_TARGETS", async () => {
    const plain = await register({ target: "http://93.184.215.14/plain" });
    expect([plain.status, plain.json]).toEqual([400, { error: { target: ["Use an https:// URL: deliveries carry patient data."] } }]);
    expect(await liveRows({ target: "http://93.184.215.14/plain" })).toHaveLength(0);
    expect((await register({ target: "https://93.184.215.14/tls" })).status).toBe(201);
    allowPrivateTargets();
    expect((await register({ target: "http://93.184.215.14/plain" })).status).toBe(201);
  });

  it("needs header_key and header_value together", async () => {
    const keyOnly = await register({ header_key: "X-Token" });
    expect(keyOnly.status).toBe(400);
    expect(keyOnly.json).toEqual({ error: { header_value: ["Required when header_key is set."] } });
    const valueOnly = await register({ header_value: "secret" });
    expect(valueOnly.json).toEqual({ error: { header_key: ["Required when header_value is set."] } });
    // null means no header, like omitting it.
    expect((await register({ target: `${TARGET}/nulls`, header_key: null, header_value: null })).json.header_key).toBeNull();
  });

  it("refuses reserved and malformed header names and unsafe values", async () => {
    for (const headerKey of ["X-Webhook-Signature", "content-type", "X-WEBHOOK-TEST", "Host", "Content-Length"]) {
      const r = await register({ header_key: headerKey, header_value: "v" });
      expect(r.status, headerKey).toBe(400);
      expect(r.json.error.header_key[0], headerKey).toMatch(/set by the service/);
    }
    for (const headerKey of ["Bad Header", "X-Ünicode", "X:Colon", "", "x".repeat(101)]) {
      const r = await register({ header_key: headerKey, header_value: "v" });
      expect(r.status, headerKey).toBe(400);
      expect(Object.keys(r.json.error), headerKey).toEqual(["header_key"]);
    }
    for (const headerValue of ["a\r\nX-Injected: 1", "a\nb", "a\u0000b", "", "v".repeat(1001), " padded", "ümlaut"]) {
      const r = await register({ header_key: "X-Token", header_value: headerValue });
      expect(r.status, JSON.stringify(headerValue)).toBe(400);
      expect(Object.keys(r.json.error)).toEqual(["header_value"]);
    }
    expect((await register({ target: `${TARGET}/long`, header_key: "x".repeat(100), header_value: "v".repeat(1000) })).status).toBe(201);
  });

  it("reports every invalid field at once", async () => {
    const r = await register({ notification_type: "nope", target: "ftp://x", header_key: "X-Token" });
    expect(Object.keys(r.json.error).sort()).toEqual(["header_value", "notification_type", "target"]);
  });

  it("answers Bad request for invalid JSON or another content type", async () => {
    const badJson = await call("POST", BASE, { key: t.keys.pharmacy, raw: "{not json", headers: { "content-type": "application/json" } });
    expect(badJson.status).toBe(400);
    expect(badJson.json).toEqual({ error: "Bad request" });
    const text = await call("POST", BASE, {
      key: t.keys.pharmacy,
      raw: JSON.stringify({ notification_type: "pharmacy_order_created", target: TARGET }),
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(400);
    expect(text.json).toEqual({ error: "Bad request" });
  });
});

describe("permissions", () => {
  it("GET needs webhooks_read; POST and DELETE need webhooks_write", async () => {
    expect((await get(BASE, { key: readOnlyKey })).status).toBe(200);
    const denied = { error: "Permission denied" };
    const readPost = await register({}, readOnlyKey);
    expect([readPost.status, readPost.json]).toEqual([403, denied]);
    const created = await register({ target: `${TARGET}/perm` }, writeOnlyKey);
    expect(created.status).toBe(201);
    const readDelete = await del(`${BASE}/${created.json.uid}`, { key: readOnlyKey });
    expect([readDelete.status, readDelete.json]).toEqual([403, denied]);
    const writeGet = await get(BASE, { key: writeOnlyKey });
    expect([writeGet.status, writeGet.json]).toEqual([403, denied]);
    const noWebhooks = await get(BASE, { key: t.keys.pharmacyStockRead });
    expect([noWebhooks.status, noWebhooks.json]).toEqual([403, denied]);
    expect((await del(`${BASE}/${created.json.uid}`, { key: writeOnlyKey })).status).toBe(204);
  });

  it("needs a key", async () => {
    expect((await get(BASE)).json.code).toBe("authorization_header_missing");
    expect((await get(BASE, { key: other.keys.management })).json.code).toBe("invalid_api_key");
  });
});

describe("scope", () => {
  it("deleting another pharmacy's subscription is 404 and leaves it in place", async () => {
    const theirs = await register({ target: `${TARGET}/theirs` }, t.keys.loosePharmacy);
    expect(theirs.json.pharmacy_uid).toBe(t.loosePharmacy.id);
    for (const key of [t.keys.pharmacy, other.keys.pharmacy]) {
      const r = await del(`${BASE}/${theirs.json.uid}`, { key });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ error: "Resource not found" });
    }
    expect((await rowOf(theirs.json.uid)).deletedAt).toBeNull();
    expect((await get(BASE, { key: t.keys.loosePharmacy, query: { limit: 1000 } })).json.data.map((s: { uid: string }) => s.uid)).toContain(theirs.json.uid);
    expect((await get(BASE, { key: t.keys.pharmacy, query: { limit: 1000 } })).json.data.map((s: { uid: string }) => s.uid)).not.toContain(theirs.json.uid);
  });

  it("deletes its own subscription (soft) and then answers 404", async () => {
    const mine = await register({ target: `${TARGET}/mine` });
    const r = await del(`${BASE}/${mine.json.uid}/`, { key: t.keys.pharmacy });
    expect(r.status).toBe(204);
    expect(r.text).toBe("");
    expect((await rowOf(mine.json.uid)).deletedAt).toBeInstanceOf(Date);
    expect((await get(BASE, { key: t.keys.pharmacy, query: { limit: 1000 } })).json.data.map((s: { uid: string }) => s.uid)).not.toContain(mine.json.uid);
    expect((await del(`${BASE}/${mine.json.uid}`, { key: t.keys.pharmacy })).status).toBe(404);
    expect((await del(`${BASE}/not-a-uid`, { key: t.keys.pharmacy })).status).toBe(404);
  });

  it("a single-pharmacy key may name its own pharmacy in the body, not another", async () => {
    expect((await register({ target: `${TARGET}/own`, pharmacy_uid: t.pharmacy.id })).status).toBe(201);
    for (const pharmacyUid of [t.groupPharmacy.id, t.loosePharmacy.id, other.pharmacy.id, "unknown"]) {
      const r = await register({ pharmacy_uid: pharmacyUid });
      expect([r.status, r.json]).toEqual([400, { error: "Bad request" }]);
    }
  });

  it("a group key registers for a pharmacy of its group named in the body or the query", async () => {
    const byBody = await register({ target: `${TARGET}/group`, pharmacy_uid: t.groupPharmacy.id }, t.keys.pharmacyGroup);
    expect(byBody.status).toBe(201);
    expect(byBody.json.pharmacy_uid).toBe(t.groupPharmacy.id);
    const byQuery = await register({ target: `${TARGET}/group` }, t.keys.pharmacyGroup, { pharmacy_uid: t.pharmacy.id });
    expect(byQuery.json.pharmacy_uid).toBe(t.pharmacy.id);
    expect(byQuery.json.uid).not.toBe(byBody.json.uid);

    const refused = [
      await register({}, t.keys.pharmacyGroup),
      await register({ pharmacy_uid: t.loosePharmacy.id }, t.keys.pharmacyGroup),
      await register({ pharmacy_uid: other.pharmacy.id }, t.keys.pharmacyGroup),
      await register({ pharmacy_uid: t.pharmacy.id }, t.keys.pharmacyGroup, { pharmacy_uid: t.groupPharmacy.id }),
    ];
    for (const r of refused) expect([r.status, r.json]).toEqual([400, { error: "Bad request" }]);
  });

  it("lists with the spec's envelope and honours page and limit, oldest first", async () => {
    const all = (await get(BASE, { key: t.keys.pharmacy, query: { limit: 1000 } })).json;
    expect(all.totalRegistries).toBeGreaterThan(2);
    const uidsOf = (page: { data: { uid: string }[] }) => page.data.map((s) => s.uid);
    const first = (await get(BASE, { key: t.keys.pharmacy, query: { page: 0, limit: 2 } })).json;
    const second = (await get(BASE, { key: t.keys.pharmacy, query: { page: 1, limit: 2 } })).json;
    expect(first).toMatchObject({ totalRegistries: all.totalRegistries, totalPages: Math.ceil(all.totalRegistries / 2) });
    expect([...uidsOf(first), ...uidsOf(second)]).toEqual(uidsOf(all).slice(0, 4));
    const beyond = (await get(BASE, { key: t.keys.pharmacy, query: { page: 10_000, limit: 2 } })).json;
    expect(beyond.data).toEqual([]);
    expect((await get(BASE, { key: t.keys.pharmacy, query: { limit: 0 } })).status).toBe(400);
  });

  it("a group key lists and deletes with pharmacy_uid, like every pharmacy resource", async () => {
    const sub = await register({ target: `${TARGET}/group-list`, pharmacy_uid: t.groupPharmacy.id }, t.keys.pharmacyGroup);
    const missing = await get(BASE, { key: t.keys.pharmacyGroup });
    expect([missing.status, missing.json]).toEqual([400, { error: "Bad request" }]);
    const listed = await get(BASE, { key: t.keys.pharmacyGroup, query: { pharmacy_uid: t.groupPharmacy.id } });
    expect(listed.json.data.map((s: { uid: string }) => s.uid)).toContain(sub.json.uid);
    expect(listed.json.data.every((s: { pharmacy_uid: string }) => s.pharmacy_uid === t.groupPharmacy.id)).toBe(true);

    const wrongPharmacy = await del(`${BASE}/${sub.json.uid}`, { key: t.keys.pharmacyGroup, query: { pharmacy_uid: t.pharmacy.id } });
    expect(wrongPharmacy.status).toBe(404);
    const noPharmacy = await del(`${BASE}/${sub.json.uid}`, { key: t.keys.pharmacyGroup });
    expect(noPharmacy.status).toBe(400);
    expect((await del(`${BASE}/${sub.json.uid}`, { key: t.keys.pharmacyGroup, query: { pharmacy_uid: t.groupPharmacy.id } })).status).toBe(204);
  });
});
