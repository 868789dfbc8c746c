/** POST …/products/{shop}/live-stock and …/reservation: stock minus live holds, all-or-nothing holds, never more than the stock. */
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { createSku } from "@/server/domain/catalogue/skus";
import { RESERVATION_HOLD_MINUTES } from "@/server/domain/storefront/statuses";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { post } from "@/tests/http";
import { offerSku } from "@/tests/orders";

let t: Tenant;
let other: Tenant;
let readOnly: string;
beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  await offerSku(t, { shopVariationId: "otc", price: 499 }); // stock 10 at A + 3 at B
  await offerSku(t, { shopVariationId: "voucher", price: 199, skuId: t.digitalSku.id }); // stock 5 at A
  await offerSku(other, { shopVariationId: "otc", price: 499 });
  readOnly = (await createApiKey({ family: "PUBLIC", displayName: "read", permissions: ["product:read"], organisationId: t.organisation.id })).plaintext;
});

const P = "/v2/public-api/products";
const liveStock = (items: unknown, key = t.keys.public, shop = t.shop.identifier) => post(`${P}/${shop}/live-stock`, { key, body: { items } });
const reserve = (items: unknown, key = t.keys.public, shop = t.shop.identifier) => post(`${P}/${shop}/reservation`, { key, body: { items } });
/** Draft orders and their lines of the tenant: a refusal leaves both as they were. */
const drafts = async () => [
  await t.db.draftOrder.count({ where: { organisationId: t.organisation.id } }),
  await t.db.draftOrderLine.count({ where: { draftOrder: { organisationId: t.organisation.id } } }),
];

/** Ends every live hold of the tenant, so each test starts from the pharmacies' stock. */
async function releaseHolds(tenant: Tenant = t) {
  await tenant.db.draftOrder.updateMany({ where: { organisationId: tenant.organisation.id, status: "reserved" }, data: { status: "expired" } });
}

describe("live stock", () => {
  it("answers per item whether it can be served now and how much is available", async () => {
    const r = await liveStock([
      { sku_uid: t.sku.id, quantity: 13 },
      { sku_uid: t.sku.id, quantity: 14 },
      { sku_uid: t.digitalSku.id, quantity: 1 },
    ]);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({
      data: [
        { sku_uid: t.sku.id, quantity: 13, available_quantity: 13, can_be_served: true },
        { sku_uid: t.sku.id, quantity: 14, available_quantity: 13, can_be_served: false },
        { sku_uid: t.digitalSku.id, quantity: 1, available_quantity: 5, can_be_served: true },
      ],
    });
  });

  it("counts stock held by live reservations, not by expired or consumed ones", async () => {
    const held = await reserve([{ sku_uid: t.sku.id, quantity: 4 }]);
    expect(held.status, held.text).toBe(201);
    const available = async () => (await liveStock([{ sku_uid: t.sku.id, quantity: 10 }])).json.data[0];
    expect(await available()).toEqual({ sku_uid: t.sku.id, quantity: 10, available_quantity: 9, can_be_served: false });
    const draft = await t.db.draftOrder.findUniqueOrThrow({ where: { legacyId: BigInt(held.json.draft_order_id) } });
    await t.db.draftOrder.update({ where: { id: draft.id }, data: { status: "open" } }); // consumed by a checkout
    expect((await available()).available_quantity).toBe(13);
    await t.db.draftOrder.update({ where: { id: draft.id }, data: { status: "reserved", holdExpiresAt: new Date(Date.now() - 1) } });
    expect((await available()).available_quantity).toBe(13); // the hold ended, the job has not run yet
    await releaseHolds();
  });

  it("a SKU the shop does not offer (unknown, removed, another organisation's) has 0 available", async () => {
    const unoffered = await createSku(t.organisation.id, t.product.id, { displayName: "Not in the shop" }, { type: "SYSTEM" });
    await t.db.pharmacySku.create({ data: { pharmacyId: t.pharmacy.id, skuId: unoffered.id, externalId: "X", price: 1, stock: 50 } });
    const r = await liveStock([
      { sku_uid: "nope", quantity: 1 },
      { sku_uid: unoffered.id, quantity: 1 },
      { sku_uid: other.sku.id, quantity: 1 },
    ]);
    expect(r.json.data.map((e: any) => [e.available_quantity, e.can_be_served])).toEqual([
      [0, false],
      [0, false],
      [0, false],
    ]);
  });

  it("refuses malformed bodies with 400 in the validation shape", async () => {
    expect((await liveStock([])).json).toEqual({ error: { items: [expect.any(String)] } });
    expect((await liveStock([{ sku_uid: t.sku.id, quantity: 0 }])).json).toEqual({ error: { items: { "0": { quantity: [expect.any(String)] } } } });
    expect((await liveStock([{ sku_uid: t.sku.id, quantity: 1.5 }])).status).toBe(400);
    expect((await liveStock([{ quantity: 1 }])).json).toEqual({ error: { items: { "0": { sku_uid: ["This field is required."] } } } });
    expect((await liveStock(Array.from({ length: 101 }, () => ({ sku_uid: t.sku.id, quantity: 1 })))).status).toBe(400);
    expect((await liveStock(Array.from({ length: 100 }, () => ({ sku_uid: t.sku.id, quantity: 1 })))).status).toBe(200);
    const notJson = await post(`${P}/${t.shop.identifier}/live-stock`, { key: t.keys.public, raw: "{", headers: { "content-type": "application/json" } });
    expect(notJson).toMatchObject({ status: 400, json: { error: "Invalid JSON in request body" } });
  });

  it("404 for another organisation's shop; 403 without product:read", async () => {
    expect(await liveStock([{ sku_uid: other.sku.id, quantity: 1 }], t.keys.public, other.shop.identifier)).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    const orderOnly = (await createApiKey({ family: "PUBLIC", displayName: "orders", permissions: ["order:read"], organisationId: t.organisation.id })).plaintext;
    expect(await liveStock([{ sku_uid: t.sku.id, quantity: 1 }], orderOnly)).toMatchObject({ status: 403, json: { code: "permission_denied" } });
  });
});

describe("reservation", () => {
  it("reserves in a draft order (kind RESERVATION, reserved) for 15 minutes; 201 with draft_order_id, expires_at and the lines", async () => {
    const before = Date.now();
    const r = await reserve([
      { sku_uid: t.sku.id, quantity: 2 },
      { sku_uid: t.digitalSku.id, quantity: 1 },
    ]);
    expect(r.status, r.text).toBe(201);
    expect(r.json).toEqual({
      draft_order_id: expect.stringMatching(/^\d+$/),
      status: "reserved",
      expires_at: expect.any(Number),
      line_items: [
        { sku_uid: t.sku.id, quantity: 2, price: 499, currency: "EUR" },
        { sku_uid: t.digitalSku.id, quantity: 1, price: 199, currency: "EUR" },
      ],
    });
    const draft = await t.db.draftOrder.findUniqueOrThrow({ where: { legacyId: BigInt(r.json.draft_order_id) }, include: { lines: true } });
    expect(draft).toMatchObject({ organisationId: t.organisation.id, shopId: t.shop.id, kind: "RESERVATION", status: "reserved" });
    const holdMs = draft.holdExpiresAt!.getTime() - before;
    expect(holdMs).toBeGreaterThanOrEqual(RESERVATION_HOLD_MINUTES * 60_000 - 1000);
    expect(holdMs).toBeLessThanOrEqual(RESERVATION_HOLD_MINUTES * 60_000 + 5000);
    expect(r.json.expires_at).toBe(Math.floor(draft.holdExpiresAt!.getTime() / 1000));
    const shopSku = await t.db.shopSku.findFirstOrThrow({ where: { shopId: t.shop.id, skuId: t.sku.id } });
    expect(draft.lines.find((l) => l.skuId === t.sku.id)).toMatchObject({ shopSkuId: shopSku.id, quantity: 2, unitPrice: 499 });
    await releaseHolds();
  });

  it("refuses with 409 and each line's availability when the stock cannot cover a line; all or nothing", async () => {
    const before = await drafts();
    const r = await reserve([
      { sku_uid: t.digitalSku.id, quantity: 1 },
      { sku_uid: t.sku.id, quantity: 10 },
      { sku_uid: t.sku.id, quantity: 4 }, // two items of one SKU are reserved together: 14 > 13
    ]);
    expect(r.status).toBe(409);
    expect(r.json).toEqual({
      code: "insufficient_stock",
      error: "Not enough stock to reserve every item.",
      items: expect.arrayContaining([
        { sku_uid: t.sku.id, quantity: 14, available_quantity: 13 },
        { sku_uid: t.digitalSku.id, quantity: 1, available_quantity: 5 },
      ]),
    });
    expect(await drafts()).toEqual(before);
  });

  it("400 on the field for a SKU the shop does not offer, writing nothing", async () => {
    const before = await drafts();
    const r = await reserve([
      { sku_uid: t.sku.id, quantity: 1 },
      { sku_uid: other.sku.id, quantity: 1 },
    ]);
    expect(r).toMatchObject({ status: 400, json: { error: { items: { "1": { sku_uid: ["Unknown SKU: the shop does not offer it."] } } } } });
    expect((await reserve([{ sku_uid: t.sku.id, quantity: -1 }])).status).toBe(400);
    expect((await reserve({})).status).toBe(400);
    expect(await drafts()).toEqual(before);
  });

  it("404 for another organisation's shop; 403 without create_prescription_checkout", async () => {
    const before = await drafts();
    expect(await reserve([{ sku_uid: other.sku.id, quantity: 1 }], t.keys.public, other.shop.identifier)).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    expect(await reserve([{ sku_uid: t.sku.id, quantity: 1 }], readOnly)).toMatchObject({
      status: 403,
      json: { code: "permission_denied", description: expect.stringContaining("create_prescription_checkout") },
    });
    expect(await drafts()).toEqual(before);
    expect(await other.db.draftOrder.count({ where: { organisationId: other.organisation.id } })).toBe(0);
  });

  it("concurrent reservations never hold more than the stock: stock 5, ten reservations of 1, exactly 5 succeed", async () => {
    await releaseHolds();
    const results = await Promise.all(Array.from({ length: 10 }, () => reserve([{ sku_uid: t.digitalSku.id, quantity: 1 }])));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 201, 201, 409, 409, 409, 409, 409]);
    const held = await t.db.draftOrderLine.aggregate({
      where: { skuId: t.digitalSku.id, draftOrder: { status: "reserved" } },
      _sum: { quantity: true },
    });
    expect(held._sum.quantity).toBe(5);
    expect((await liveStock([{ sku_uid: t.digitalSku.id, quantity: 1 }])).json.data[0]).toMatchObject({ available_quantity: 0, can_be_served: false });
    await releaseHolds();
  });

  it("overlapping reservations named in opposite orders neither deadlock nor overbook", async () => {
    const ab = [
      { sku_uid: t.sku.id, quantity: 3 },
      { sku_uid: t.digitalSku.id, quantity: 1 },
    ];
    const ba = [...ab].reverse();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => reserve(i % 2 ? ab : ba)));
    // 13 of the OTC SKU cover four reservations of 3; 5 vouchers would cover five.
    expect(results.filter((r) => r.status === 201)).toHaveLength(4);
    expect(results.filter((r) => r.status === 409)).toHaveLength(4);
    await releaseHolds();
  });
});
