import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { del, get, post } from "@/tests/http";
import { createCustomer, createPrescription, createWalletTemplates } from "@/tests/wallet-passes";

const M = "/v1/management";
const W = `${M}/wallet-passes`;

let t: Tenant;
let other: Tenant;
let templates: Awaited<ReturnType<typeof createWalletTemplates>>;
let otherTemplates: Awaited<ReturnType<typeof createWalletTemplates>>;
/** A key with every Management permission but the one a test names. */
const keyWithout = async (tenant: Tenant, permission: string) =>
  (
    await createApiKey({
      family: "MANAGEMENT",
      displayName: `without ${permission}`,
      permissions: ["wallet_pass_template:read", "wallet_pass:read", "wallet_pass:write", "wallet_pass:verify", "wallet_pass_push_notification:write"].filter(
        (p) => p !== permission,
      ),
      organisationId: tenant.organisation.id,
    })
  ).plaintext;

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  templates = await createWalletTemplates(t);
  otherTemplates = await createWalletTemplates(other);
});

const issue = (key: string, body: Record<string, unknown>) => post(W, { key, body });
const issueFor = (shopCustomerId: string, templateId = templates.plain.id) =>
  issue(t.keys.management, { wallet_pass_template_uid: templateId, shop_customer_id: shopCustomerId, shop_identifier: t.shop.identifier });
const passCount = () => t.db.walletPass.count();

describe("GET /wallet-passes/templates", () => {
  it("lists the shop's templates as {data, total} with uid, display_name, pass_type, shop_identifier", async () => {
    const r = await get(`${W}/templates`, { key: t.keys.management, query: { shop_identifier: t.shop.identifier } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      data: [
        { uid: templates.plain.id, display_name: "Member card", pass_type: "generic", shop_identifier: t.shop.identifier, requires_signed_prescription: false },
        { uid: templates.rx.id, display_name: "Treatment card", pass_type: "generic", shop_identifier: t.shop.identifier, requires_signed_prescription: true },
      ],
      total: 2,
    });
  });

  it("answers 404 for a shop of another organisation or an unknown one, 400 without shop_identifier", async () => {
    for (const shop_identifier of [other.shop.identifier, "no-such-shop"]) {
      const r = await get(`${W}/templates`, { key: t.keys.management, query: { shop_identifier } });
      expect(r).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    }
    const missing = await get(`${W}/templates`, { key: t.keys.management });
    expect(missing).toMatchObject({ status: 400, json: { error: { shop_identifier: ["This field is required."] } } });
  });

  it("needs a key (401) with wallet_pass_template:read (403 permission_denied)", async () => {
    const query = { shop_identifier: t.shop.identifier };
    expect((await get(`${W}/templates`, { query })).status).toBe(401);
    const r = await get(`${W}/templates`, { key: await keyWithout(t, "wallet_pass_template:read"), query });
    expect(r).toMatchObject({ status: 403, json: { code: "permission_denied", description: expect.stringContaining("wallet_pass_template:read") } });
  });
});

describe("POST /wallet-passes", () => {
  it("issues a new pass with 201: the wallet pass object, an unguessable barcode stored sealed and hashed", async () => {
    const { shopCustomerId } = await createCustomer(t);
    const r = await issueFor(shopCustomerId);
    expect(r.status).toBe(201);
    expect(r.json).toEqual({
      uid: expect.any(String),
      wallet_pass_template_uid: templates.plain.id,
      shop_customer_id: shopCustomerId,
      status: "active",
      deleted_at: null,
      ios_download_url: expect.stringMatching(new RegExp(`^http://localhost:3000/wallet/passes/${r.json.uid}/[A-Za-z0-9_-]{43}\\.pkpass$`)),
      android_download_url: r.json.ios_download_url,
      barcode_value: expect.stringMatching(/^rxp_[A-Za-z0-9_-]{43}$/),
      shop_identifier: t.shop.identifier,
      last_message: null,
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
    });
    const row = await t.db.walletPass.findUniqueOrThrow({ where: { id: r.json.uid } });
    expect(row.barcodeSealed).not.toContain(r.json.barcode_value);
    expect(row.barcodeHash).toBe(createHash("sha256").update(r.json.barcode_value).digest("hex"));
  });

  it("answers 200 with the same pass, refreshed (updated_at bumped, barcode kept), when the customer already holds one", async () => {
    const { shopCustomerId } = await createCustomer(t);
    const first = await issueFor(shopCustomerId);
    const before = await t.db.walletPass.findUniqueOrThrow({ where: { id: first.json.uid } });
    const again = await issueFor(shopCustomerId);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ uid: first.json.uid, barcode_value: first.json.barcode_value, status: "active" });
    const after = await t.db.walletPass.findUniqueOrThrow({ where: { id: first.json.uid } });
    expect(after.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
    // Another template is another pass.
    const rx = await createCustomer(t);
    await createPrescription(t, rx.patient.id, true);
    expect((await issueFor(rx.shopCustomerId)).status).toBe(201);
    expect((await issueFor(rx.shopCustomerId, templates.rx.id)).status).toBe(201);
  });

  it("is idempotent under concurrent requests: exactly one 201, the rest 200, one pass", async () => {
    const { customer, shopCustomerId } = await createCustomer(t);
    const results = await Promise.all(Array.from({ length: 8 }, () => issueFor(shopCustomerId)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.json.uid)).size).toBe(1);
    expect(await t.db.walletPass.count({ where: { shopCustomerId: customer.id } })).toBe(1);
  });

  it("issues a new pass after the old one was deleted", async () => {
    const { shopCustomerId } = await createCustomer(t);
    const first = await issueFor(shopCustomerId);
    expect((await del(`${W}/${first.json.uid}`, { key: t.keys.management })).status).toBe(204);
    const second = await issueFor(shopCustomerId);
    expect(second.status).toBe(201);
    expect(second.json.uid).not.toBe(first.json.uid);
    expect(second.json.barcode_value).not.toBe(first.json.barcode_value);
  });

  it("refuses a patient who is not a customer of the shop with 400 and writes nothing", async () => {
    const ofOtherShop = await createCustomer(t, { shopId: t.otherShop.id });
    const before = await passCount();
    for (const shopCustomerId of ["never-registered", ofOtherShop.shopCustomerId]) {
      const r = await issueFor(shopCustomerId);
      expect(r).toMatchObject({
        status: 400,
        json: { error: "The patient must already be a customer of the shop: no customer with this shop_customer_id in this shop." },
      });
    }
    expect(await passCount()).toBe(before);
  });

  it("answers the template's own message (422) until the patient has a signed prescription", async () => {
    const { patient, shopCustomerId } = await createCustomer(t);
    const refused = { status: 422, json: { error: "This wallet pass template requires a signed prescription for the patient." } };
    expect(await issueFor(shopCustomerId, templates.rx.id)).toMatchObject(refused);
    await createPrescription(t, patient.id, false);
    expect(await issueFor(shopCustomerId, templates.rx.id)).toMatchObject(refused);
    // A signed prescription of the same person in another organisation does not count.
    const elsewhere = await createCustomer(other);
    await createPrescription(other, elsewhere.patient.id, true);
    await createPrescription(t, patient.id, true);
    expect((await issueFor(shopCustomerId, templates.rx.id)).status).toBe(201);
  });

  it("answers 404 for a template or shop of another organisation, and for a template of another shop", async () => {
    const { shopCustomerId } = await createCustomer(t);
    const cases = [
      { wallet_pass_template_uid: otherTemplates.plain.id, shop_customer_id: shopCustomerId, shop_identifier: t.shop.identifier },
      { wallet_pass_template_uid: otherTemplates.plain.id, shop_customer_id: shopCustomerId, shop_identifier: other.shop.identifier },
      { wallet_pass_template_uid: templates.otherShop.id, shop_customer_id: shopCustomerId, shop_identifier: t.shop.identifier },
      { wallet_pass_template_uid: "no-such-template", shop_customer_id: shopCustomerId, shop_identifier: t.shop.identifier },
    ];
    for (const body of cases) expect(await issue(t.keys.management, body)).toMatchObject({ status: 404, json: { error: "Resource not found" } });
  });

  it("refuses malformed bodies with the family's 400 and writes nothing", async () => {
    const { shopCustomerId } = await createCustomer(t);
    const before = await passCount();
    const missing = await issue(t.keys.management, { shop_customer_id: shopCustomerId });
    expect(missing).toMatchObject({
      status: 400,
      json: { error: { wallet_pass_template_uid: ["This field is required."], shop_identifier: ["This field is required."] } },
    });
    const wrongTypes = await issue(t.keys.management, { wallet_pass_template_uid: 5, shop_customer_id: null, shop_identifier: "" });
    expect(wrongTypes.status).toBe(400);
    expect(Object.keys(wrongTypes.json.error).sort()).toEqual(["shop_customer_id", "shop_identifier", "wallet_pass_template_uid"]);
    const notJson = await post(W, { key: t.keys.management, raw: "{", headers: { "content-type": "application/json" } });
    expect(notJson).toMatchObject({ status: 400, json: { error: "Invalid JSON in request body" } });
    const notAnObject = await post(W, { key: t.keys.management, body: [1, 2] });
    expect(notAnObject).toMatchObject({ status: 400, json: { error: { non_field_errors: expect.any(Array) } } });
    expect(await passCount()).toBe(before);
  });

  it("needs wallet_pass:write", async () => {
    const r = await issue(await keyWithout(t, "wallet_pass:write"), {});
    expect(r).toMatchObject({ status: 403, json: { code: "permission_denied" } });
  });
});

describe("GET /wallet-passes", () => {
  it("lists the customer's live passes as {data, total}, optionally of one template (not paginated)", async () => {
    const { patient, shopCustomerId } = await createCustomer(t);
    await createPrescription(t, patient.id, true);
    const plain = (await issueFor(shopCustomerId)).json;
    const rx = (await issueFor(shopCustomerId, templates.rx.id)).json;
    const query = { shop_customer_id: shopCustomerId, shop_identifier: t.shop.identifier };
    const all = await get(W, { key: t.keys.management, query });
    expect(all.status).toBe(200);
    expect(all.json).toEqual({ data: [plain, rx], total: 2 });
    const one = await get(W, { key: t.keys.management, query: { ...query, wallet_pass_template_uid: templates.rx.id } });
    expect(one.json).toEqual({ data: [rx], total: 1 });
    await del(`${W}/${plain.uid}`, { key: t.keys.management });
    expect((await get(W, { key: t.keys.management, query })).json).toEqual({ data: [rx], total: 1 });
    const nobody = await get(W, { key: t.keys.management, query: { ...query, shop_customer_id: "nobody" } });
    expect(nobody.json).toEqual({ data: [], total: 0 });
  });

  it("answers 404 for another organisation's shop, 400 without the required parameters, 403 without wallet_pass:read", async () => {
    const foreign = await get(W, { key: t.keys.management, query: { shop_customer_id: "x", shop_identifier: other.shop.identifier } });
    expect(foreign).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    const missing = await get(W, { key: t.keys.management });
    expect(missing).toMatchObject({
      status: 400,
      json: { error: { shop_customer_id: ["This field is required."], shop_identifier: ["This field is required."] } },
    });
    const denied = await get(W, { key: await keyWithout(t, "wallet_pass:read"), query: { shop_customer_id: "x", shop_identifier: t.shop.identifier } });
    expect(denied).toMatchObject({ status: 403, json: { code: "permission_denied" } });
  });
});

describe("GET and DELETE /wallet-passes/{uid}", () => {
  it("returns a live pass; DELETE answers 204 with an empty body, soft-deletes, and the pass is then not found", async () => {
    const { shopCustomerId } = await createCustomer(t);
    const created = (await issueFor(shopCustomerId)).json;
    const read = await get(`${W}/${created.uid}`, { key: t.keys.management });
    expect(read).toMatchObject({ status: 200, json: created });
    const deleted = await del(`${W}/${created.uid}`, { key: t.keys.management });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    const row = await t.db.walletPass.findUniqueOrThrow({ where: { id: created.uid } });
    expect(row).toMatchObject({ status: "revoked", deletedAt: expect.any(Date) });
    expect(await get(`${W}/${created.uid}`, { key: t.keys.management })).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    expect(await del(`${W}/${created.uid}`, { key: t.keys.management })).toMatchObject({ status: 404, json: { error: "Resource not found" } });
  });

  it("answers 404 for another organisation's pass (and leaves it alone)", async () => {
    const theirs = await createCustomer(other);
    const pass = (await issue(other.keys.management, { wallet_pass_template_uid: otherTemplates.plain.id, shop_customer_id: theirs.shopCustomerId, shop_identifier: other.shop.identifier })).json;
    expect(await get(`${W}/${pass.uid}`, { key: t.keys.management })).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    expect(await del(`${W}/${pass.uid}`, { key: t.keys.management })).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    expect((await get(`${W}/${pass.uid}`, { key: other.keys.management })).status).toBe(200);
  });

  it("needs wallet_pass:read to read and wallet_pass:write to delete", async () => {
    const { shopCustomerId } = await createCustomer(t);
    const pass = (await issueFor(shopCustomerId)).json;
    expect((await get(`${W}/${pass.uid}`, { key: await keyWithout(t, "wallet_pass:read") })).status).toBe(403);
    expect((await del(`${W}/${pass.uid}`, { key: await keyWithout(t, "wallet_pass:write") })).status).toBe(403);
    expect((await get(`${W}/${pass.uid}`, { key: t.keys.management })).status).toBe(200);
  });
});

describe("POST /wallet-passes/verify", () => {
  const verify = (key: string, body: unknown) => post(`${W}/verify`, { key, body });

  it("answers valid true for a live pass with identity handles only", async () => {
    const { shopCustomerId } = await createCustomer(t);
    const pass = (await issueFor(shopCustomerId)).json;
    const r = await verify(t.keys.management, { barcode_value: pass.barcode_value });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ valid: true, status: "active", shop_customer_id: shopCustomerId, wallet_pass_uid: pass.uid });
  });

  it("answers a revoked pass with 200, valid false and status revoked (not 404)", async () => {
    const { shopCustomerId } = await createCustomer(t);
    const pass = (await issueFor(shopCustomerId)).json;
    await del(`${W}/${pass.uid}`, { key: t.keys.management });
    const r = await verify(t.keys.management, { barcode_value: pass.barcode_value });
    expect(r).toMatchObject({ status: 200, json: { valid: false, status: "revoked", shop_customer_id: shopCustomerId } });
  });

  it("answers 404 for a value of no pass, or of another organisation's pass", async () => {
    const theirs = await createCustomer(other);
    const pass = (await issue(other.keys.management, { wallet_pass_template_uid: otherTemplates.plain.id, shop_customer_id: theirs.shopCustomerId, shop_identifier: other.shop.identifier })).json;
    for (const barcode_value of ["rxp_unknown", pass.barcode_value]) {
      expect(await verify(t.keys.management, { barcode_value })).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    }
  });

  it("refuses a body without barcode_value (400) and needs wallet_pass:verify (403)", async () => {
    expect(await verify(t.keys.management, {})).toMatchObject({ status: 400, json: { error: { barcode_value: ["This field is required."] } } });
    expect(await verify(t.keys.management, { barcode_value: 42 })).toMatchObject({ status: 400, json: { error: { barcode_value: ["Not a valid string."] } } });
    expect((await verify(await keyWithout(t, "wallet_pass:verify"), { barcode_value: "x" })).status).toBe(403);
  });
});

describe("POST /wallet-passes/push-notifications", () => {
  const push = (key: string, body: unknown) => post(`${W}/push-notifications`, { key, body });
  const written = async () => ({ notifications: await t.db.pushNotification.count(), tasks: await t.db.backgroundTask.count({ where: { name: "wallet_pass.push_notification" } }) });

  it("queues a batch: 201 with {data: [{uid, wallet_pass_uid, message, status queued}], total} and one background task each", async () => {
    const a = (await issueFor((await createCustomer(t)).shopCustomerId)).json;
    const b = (await issueFor((await createCustomer(t)).shopCustomerId)).json;
    const before = await written();
    const r = await push(t.keys.management, [
      { wallet_pass_uid: a.uid, message: "Hello {first_name}, your order is ready." },
      { wallet_pass_uid: b.uid, message: "Pick-up today" },
    ]);
    expect(r.status).toBe(201);
    expect(r.json).toEqual({
      data: [
        { uid: expect.any(String), wallet_pass_uid: a.uid, message: "Hello {first_name}, your order is ready.", status: "queued" },
        { uid: expect.any(String), wallet_pass_uid: b.uid, message: "Pick-up today", status: "queued" },
      ],
      total: 2,
    });
    expect(await written()).toEqual({ notifications: before.notifications + 2, tasks: before.tasks + 2 });
    const task = await t.db.backgroundTask.findFirstOrThrow({ where: { name: "wallet_pass.push_notification" }, orderBy: { createdAt: "desc" } });
    expect([r.json.data[0].uid, r.json.data[1].uid]).toContain((task.payload as { notificationId: string }).notificationId);
  });

  it("answers 400 when a wallet pass is not found (unknown, deleted or another organisation's), all or nothing", async () => {
    const live = (await issueFor((await createCustomer(t)).shopCustomerId)).json;
    const deleted = (await issueFor((await createCustomer(t)).shopCustomerId)).json;
    await del(`${W}/${deleted.uid}`, { key: t.keys.management });
    const theirs = await createCustomer(other);
    const foreign = (await issue(other.keys.management, { wallet_pass_template_uid: otherTemplates.plain.id, shop_customer_id: theirs.shopCustomerId, shop_identifier: other.shop.identifier })).json;
    const before = await written();
    const r = await push(t.keys.management, [
      { wallet_pass_uid: live.uid, message: "ok" },
      { wallet_pass_uid: "no-such-pass", message: "x" },
      { wallet_pass_uid: deleted.uid, message: "x" },
      { wallet_pass_uid: foreign.uid, message: "x" },
    ]);
    expect(r.status).toBe(400);
    const notFound = { wallet_pass_uid: ["Wallet pass not found."] };
    expect(r.json).toEqual({ error: { "1": notFound, "2": notFound, "3": notFound } });
    expect(await written()).toEqual(before);
  });

  it("answers 400 for an invalid body format, an empty array, a validation error or more than 100 entries, writing nothing", async () => {
    const pass = (await issueFor((await createCustomer(t)).shopCustomerId)).json;
    const before = await written();
    expect(await push(t.keys.management, [])).toMatchObject({ status: 400, json: { error: { non_field_errors: ["Provide at least 1 item(s)."] } } });
    expect(await push(t.keys.management, { wallet_pass_uid: pass.uid, message: "x" })).toMatchObject({
      status: 400,
      json: { error: { non_field_errors: ["Expected a list of items."] } },
    });
    expect(await push(t.keys.management, [{ wallet_pass_uid: pass.uid }, { message: "x" }, { wallet_pass_uid: pass.uid, message: "" }])).toMatchObject({
      status: 400,
      json: {
        error: {
          "0": { message: ["This field is required."] },
          "1": { wallet_pass_uid: ["This field is required."] },
          "2": { message: ["This field may not be blank."] },
        },
      },
    });
    const tooMany = Array.from({ length: 101 }, () => ({ wallet_pass_uid: pass.uid, message: "x" }));
    expect(await push(t.keys.management, tooMany)).toMatchObject({ status: 400, json: { error: { non_field_errors: ["At most 100 notifications per request."] } } });
    const notJson = await post(`${W}/push-notifications`, { key: t.keys.management, raw: "[{", headers: { "content-type": "application/json" } });
    expect(notJson).toMatchObject({ status: 400, json: { error: "Invalid JSON in request body" } });
    expect(await written()).toEqual(before);
    const hundred = Array.from({ length: 100 }, () => ({ wallet_pass_uid: pass.uid, message: "x" }));
    expect((await push(t.keys.management, hundred)).json.total).toBe(100);
  });

  it("needs wallet_pass_push_notification:write (403)", async () => {
    const r = await push(await keyWithout(t, "wallet_pass_push_notification:write"), [{ wallet_pass_uid: "x", message: "y" }]);
    expect(r).toMatchObject({ status: 403, json: { code: "permission_denied", description: expect.stringContaining("wallet_pass_push_notification:write") } });
  });
});
