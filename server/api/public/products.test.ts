/** GET /v2/public-api/products/{shop_identifier}: the storefront's products (G26), and the Public API's auth rules. */
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get } from "@/tests/http";
import { offerSku } from "@/tests/orders";

let t: Tenant;
let other: Tenant;
let keyWithout: string;
beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  await offerSku(t, { shopVariationId: "otc", price: 499 });
  await offerSku(t, { shopVariationId: "voucher", price: 199, skuId: t.digitalSku.id });
  await offerSku(t, { shopVariationId: "rx", price: 2999, skuId: t.rxSku.id, shopProductId: t.rxShopProduct.id });
  keyWithout = (await createApiKey({ family: "PUBLIC", displayName: "no product:read", permissions: ["order:read"], organisationId: t.organisation.id })).plaintext;
});

const P = "/v2/public-api/products";
const list = (query: Record<string, string | number> = {}, key = t.keys.public, shop = t.shop.identifier) =>
  get(`${P}/${shop}`, { key, query: { market: "DE", ...query } });
const skusOf = (r: { json: any }) => r.json.data.flatMap((p: any) => p.skus.map((s: any) => s.uid));

describe("products of a shop", () => {
  it("has G26's shape: products with attributes and their offered SKUs (price in cents, EUR, availability bucket)", async () => {
    const r = await list();
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({
      data: [
        {
          uid: t.product.id,
          display_name: "Aspirin",
          attributes: { prescription_required: false },
          skus: [
            {
              uid: t.sku.id,
              display_name: "Aspirin 500 mg",
              attributes: { pzn: "11111111" },
              availability: "Medium", // 10 at pharmacy A + 3 at B
              telemedicine_provider_data: null,
              price: 499,
              currency: "EUR",
              unit: null,
              standard_selling_unit: null,
            },
            expect.objectContaining({ uid: t.digitalSku.id, price: 199, availability: "Low" }), // 5 at A
          ],
        },
        {
          uid: t.rxProduct.id,
          display_name: "Finasteride",
          attributes: { prescription_required: true },
          skus: [expect.objectContaining({ uid: t.rxSku.id, price: 2999, availability: "Unavailable" })], // no pharmacy SKU
        },
      ],
      totalRegistries: 2,
      totalPages: 1,
    });
  });

  it("lists only SKUs with a live shop SKU in this shop, and only products with a shop product in it", async () => {
    const shopSku = await t.db.shopSku.findFirstOrThrow({ where: { shopId: t.shop.id, skuId: t.digitalSku.id } });
    await t.db.shopSku.update({ where: { id: shopSku.id }, data: { deletedAt: new Date() } });
    try {
      expect(skusOf(await list())).toEqual([t.sku.id, t.rxSku.id]);
    } finally {
      await t.db.shopSku.update({ where: { id: shopSku.id }, data: { deletedAt: null } });
    }
    // The second shop has a shop product of Aspirin but no shop SKUs: the product, without SKUs.
    const second = await list({}, t.keys.public, t.otherShop.identifier);
    expect(second.json).toEqual({
      data: [{ uid: t.product.id, display_name: "Aspirin", attributes: { prescription_required: false }, skus: [] }],
      totalRegistries: 1,
      totalPages: 1,
    });
  });

  it("availability: High from 50, Medium from 10, Low from 1, else Unavailable; held stock and hidden-type pharmacies do not count", async () => {
    const bucket = async () => (await list()).json.data[0].skus[0].availability;
    const setStock = (a: number, b: number) =>
      Promise.all([
        t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: a } }),
        t.db.pharmacySku.update({ where: { id: t.groupPharmacySku.id }, data: { stock: b } }),
      ]);
    try {
      await setStock(40, 10);
      expect(await bucket()).toBe("High");
      await setStock(40, 9);
      expect(await bucket()).toBe("Medium");
      await setStock(9, 0);
      expect(await bucket()).toBe("Low");
      await setStock(0, -3);
      expect(await bucket()).toBe("Unavailable");

      await setStock(50, 0);
      const draft = await t.db.draftOrder.create({
        data: {
          organisationId: t.organisation.id,
          shopId: t.shop.id,
          kind: "RESERVATION",
          status: "reserved",
          holdExpiresAt: new Date(Date.now() + 60_000),
          lines: { create: { skuId: t.sku.id, quantity: 1 } },
        },
      });
      expect(await bucket()).toBe("Medium"); // 49 after the live hold
      await t.db.draftOrder.update({ where: { id: draft.id }, data: { holdExpiresAt: new Date(Date.now() - 1000) } });
      expect(await bucket()).toBe("High"); // an ended hold stops counting before the job marks it
      await t.db.draftOrderLine.deleteMany({ where: { draftOrderId: draft.id } });
      await t.db.draftOrder.delete({ where: { id: draft.id } });

      await t.db.pharmacy.update({ where: { id: t.pharmacy.id }, data: { hiddenSkuType: "PHYSICAL" } });
      expect(await bucket()).toBe("Unavailable"); // pharmacy A does not take physical SKUs: routing skips it
      await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { deletedAt: new Date() } });
      await t.db.pharmacy.update({ where: { id: t.pharmacy.id }, data: { hiddenSkuType: "NONE" } });
      expect(await bucket()).toBe("Unavailable"); // a deleted pharmacy SKU holds nothing
    } finally {
      await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { deletedAt: null } });
      await setStock(10, 3);
    }
  });

  it("searches product and SKU names case-insensitively: a product match shows all its SKUs, a SKU match only that SKU", async () => {
    expect(skusOf(await list({ search: "ASPIRIN" }))).toEqual([t.sku.id, t.digitalSku.id]);
    expect(skusOf(await list({ search: "e-VOUCH" }))).toEqual([t.digitalSku.id]);
    expect(skusOf(await list({ search: "1 mg" }))).toEqual([t.rxSku.id]);
    const none = await list({ search: "%" });
    expect(none.json).toEqual({ data: [], totalRegistries: 0, totalPages: 0 });
  });

  it("pages with page and limit (default 50); a larger limit is capped at 150", async () => {
    const big = await createTenant();
    const products = Array.from({ length: 160 }, (_, i) => ({
      organisationId: big.organisation.id,
      displayName: `Bulk ${String(i).padStart(3, "0")}`,
      createdAt: new Date(Date.UTC(2020, 0, 1, 0, 0, i)),
    }));
    await big.db.product.createMany({ data: products });
    const created = await big.db.product.findMany({ where: { organisationId: big.organisation.id, displayName: { startsWith: "Bulk" } } });
    await big.db.shopProduct.createMany({ data: created.map((p, i) => ({ shopId: big.shop.id, productId: p.id, externalId: `bulk-${i}` })) });
    const page = (query: Record<string, string | number>) => list(query, big.keys.public, big.shop.identifier);

    const first = await page({});
    expect(first.json.data).toHaveLength(50);
    expect(first.json).toMatchObject({ totalRegistries: 162, totalPages: 4 });
    const capped = await page({ limit: 1000 });
    expect(capped.json.data).toHaveLength(150);
    expect(capped.json).toMatchObject({ totalRegistries: 162, totalPages: 2 });
    const second = await page({ limit: 150, page: 1 });
    expect(second.json.data.map((p: any) => p.display_name)).toEqual([...Array.from({ length: 10 }, (_, i) => `Bulk ${150 + i}`), "Aspirin", "Finasteride"]);
    expect(await page({ limit: 150, page: 5 })).toMatchObject({ status: 200, json: { data: [], totalRegistries: 162, totalPages: 2 } });
    expect(await page({ limit: 150, page: 5, search: "bulk 15" })).toMatchObject({ json: { data: [], totalRegistries: 10, totalPages: 1 } });
  });

  it("requires market, an ISO country code (400 in the validation shape otherwise)", async () => {
    const missing = await get(`${P}/${t.shop.identifier}`, { key: t.keys.public });
    expect(missing).toMatchObject({ status: 400, json: { error: { market: ["This field is required."] } } });
    for (const market of ["", "XX", "DEU", "1"]) {
      const bad = await list({ market });
      expect(bad.status, market).toBe(400);
      expect(Object.keys(bad.json.error)).toEqual(["market"]);
    }
    expect((await list({ market: "at" })).status).toBe(200);
    expect((await list({ limit: "x" })).json).toEqual({ error: { limit: ["A valid integer is required."] } });
  });

  it("404 for an unknown shop or another organisation's", async () => {
    for (const shop of ["no-such-shop", other.shop.identifier]) {
      expect(await list({}, t.keys.public, shop)).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    }
  });

  it("401 without a valid key, 403 without product:read, and Management keys are not Public keys", async () => {
    const none = await get(`${P}/${t.shop.identifier}`, { query: { market: "DE" } });
    expect(none).toMatchObject({ status: 401, json: { code: "authorization_header_missing" } });
    expect(await list({}, "nope")).toMatchObject({ status: 401, json: { code: "invalid_api_key" } });
    expect(await list({}, t.keys.management)).toMatchObject({ status: 401, json: { code: "invalid_api_key" } });
    expect(await list({}, keyWithout)).toMatchObject({ status: 403, json: { code: "permission_denied", description: expect.stringContaining("product:read") } });
  });

  it("takes the key as X-API-Key, X-Service-Authorization or Authorization: Bearer", async () => {
    const path = `${P}/${t.shop.identifier}`;
    const query = { market: "DE" };
    const viaHeaders: Record<string, string>[] = [{ "x-api-key": t.keys.public }, { "x-service-authorization": t.keys.public }, { authorization: `Bearer ${t.keys.public}` }];
    for (const headers of viaHeaders) {
      const r = await get(path, { headers, query });
      expect(r.status, JSON.stringify(headers)).toBe(200);
      expect(r.json.totalRegistries).toBe(2);
    }
  });
});
