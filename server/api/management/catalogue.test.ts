import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { del, get, patch, post } from "@/tests/http";

let t: Tenant;
let other: Tenant;
beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
});

const M = "/v1/management";

describe("products", () => {
  it("lists the organisation's products with SKUs, shop SKUs, pharmacy SKUs and shop products", async () => {
    const shopSku = await t.db.shopSku.create({
      data: { shopId: t.shop.id, shopProductId: t.shopProduct.id, skuId: t.sku.id, shopVariationId: "var-p1", price: 500 },
    });
    const r = await get(`${M}/products`, { key: t.keys.management });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(["products", "totalRegistries", "totalPages"]);
    expect(r.json.totalRegistries).toBe(2);
    const aspirin = r.json.products.find((p: { uid: string }) => p.uid === t.product.id);
    expect(aspirin).toEqual({
      uid: t.product.id,
      display_name: "Aspirin",
      skus: [
        {
          uid: t.sku.id,
          display_name: "Aspirin 500 mg",
          pzn: "11111111",
          shop_skus: [{ uid: shopSku.id, shop_uid: t.shop.id, external_id: "var-p1" }],
          pharmacy_skus: [
            { uid: t.pharmacySku.id, pharmacy_uid: t.pharmacy.id, price: 450, stock: 10, external_id: "A-1" },
            { uid: t.groupPharmacySku.id, pharmacy_uid: t.groupPharmacy.id, price: 470, stock: 3, external_id: "B-1" },
          ],
        },
        {
          uid: t.digitalSku.id,
          display_name: "Aspirin e-voucher",
          pzn: "22222222",
          shop_skus: [],
          pharmacy_skus: [{ uid: t.digitalPharmacySku.id, pharmacy_uid: t.pharmacy.id, price: 100, stock: 5, external_id: "A-2" }],
        },
      ],
      shop_products: [
        { uid: t.shopProduct.id, shop_uid: t.shop.id, external_id: t.shopProduct.externalId },
        { uid: t.otherShopProduct.id, shop_uid: t.otherShop.id, external_id: t.otherShopProduct.externalId },
      ],
    });
    await t.db.shopSku.delete({ where: { id: shopSku.id } });
  });

  it("returns one product, and 404 for another organisation's or an unknown one", async () => {
    const r = await get(`${M}/products/${t.rxProduct.id}`, { key: t.keys.management });
    expect(r.status).toBe(200);
    expect(r.json.skus.map((s: { uid: string }) => s.uid)).toEqual([t.rxSku.id]);
    for (const id of [other.product.id, "nope"]) {
      const miss = await get(`${M}/products/${id}`, { key: t.keys.management });
      expect(miss).toMatchObject({ status: 404, json: { error: "Resource not found" } });
    }
  });

  it("needs product:read", async () => {
    expect((await get(`${M}/products`, { key: t.keys.managementNoPermissions })).status).toBe(403);
  });
});

describe("SKUs", () => {
  it("lists entries with exactly uid, display_name, pzn, digital, product_uid", async () => {
    const r = await get(`${M}/skus`, { key: t.keys.management });
    expect(r.json.totalRegistries).toBe(3);
    expect(r.json.data[0]).toEqual({ uid: t.sku.id, display_name: "Aspirin 500 mg", pzn: "11111111", digital: false, product_uid: t.product.id });
  });

  it("searches by case-insensitive prefix of SKU name, PZN or product name — not by infix", async () => {
    const uids = async (search: string) =>
      (await get(`${M}/skus`, { key: t.keys.management, query: { search } })).json.data.map((s: { uid: string }) => s.uid);
    expect(await uids("aspirin 5")).toEqual([t.sku.id]);
    expect(await uids("3333")).toEqual([t.rxSku.id]);
    expect(await uids("FINAST")).toEqual([t.rxSku.id]);
    expect(await uids("aspirin")).toEqual([t.sku.id, t.digitalSku.id]);
    expect(await uids("500")).toEqual([]);
    expect(await uids("%")).toEqual([]);
    expect(await uids("_spirin")).toEqual([]);
  });

  it("creates a SKU with 201 and reads it back", async () => {
    const r = await post(`${M}/skus`, {
      key: t.keys.management,
      body: {
        product_uid: t.product.id,
        display_name: "Aspirin 100 mg",
        pzn: "44444444",
        dosage: "1 tablet daily",
        unit: "g",
        pcs: 50,
        weight: 12.5,
        therapy_duration: 30,
        standard_selling_unit: 10,
        prescription_name: "Acetylsalicylsäure 100 mg",
        skip_for_pharmacy_orders: true,
      },
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      uid: expect.any(String),
      display_name: "Aspirin 100 mg",
      digital: false,
      product_uid: t.product.id,
      pcs: 50,
      weight: 12.5,
      standard_selling_unit: 10,
      skip_for_pharmacy_orders: true,
      created_at: expect.any(Number),
    });
    const read = await get(`${M}/skus/${r.json.uid}`, { key: t.keys.management });
    expect(read.json).toEqual(r.json);
    await t.db.sku.delete({ where: { id: r.json.uid } });
  });

  it("rejects bad input with field errors and writes nothing", async () => {
    const before = await t.db.sku.count();
    const cases: [unknown, string][] = [
      [{ display_name: "X" }, "product_uid"],
      [{ product_uid: t.product.id }, "display_name"],
      [{ product_uid: other.product.id, display_name: "X" }, "product_uid"],
      [{ product_uid: t.product.id, display_name: "X", pcs: "5" }, "pcs"],
      [{ product_uid: t.product.id, display_name: "X", therapy_duration: 1.5 }, "therapy_duration"],
      [{ product_uid: t.product.id, display_name: "X", standard_selling_unit: -1 }, "standard_selling_unit"],
      [{ product_uid: t.product.id, display_name: "X", digital: null }, "digital"],
    ];
    for (const [body, field] of cases) {
      const r = await post(`${M}/skus`, { key: t.keys.management, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(r.json.error)).toEqual([field]);
    }
    expect(await t.db.sku.count()).toBe(before);
  });

  it("updates a subset of fields; display_name, digital and skip_for_pharmacy_orders cannot be null", async () => {
    const sku = await t.db.sku.create({ data: { organisationId: t.organisation.id, productId: t.product.id, displayName: "Temp", pzn: "555", unit: "ml" } });
    for (const field of ["display_name", "digital", "skip_for_pharmacy_orders"]) {
      const r = await patch(`${M}/skus/${sku.id}`, { key: t.keys.management, body: { [field]: null } });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({ error: { [field]: ["This field may not be null."] } });
    }
    const r = await patch(`${M}/skus/${sku.id}`, { key: t.keys.management, body: { pzn: null, display_name: "Renamed", digital: true } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ uid: sku.id, pzn: null, display_name: "Renamed", digital: true, unit: "ml" });
    expect((await patch(`${M}/skus/${sku.id}`, { key: t.keys.management, body: { product_uid: other.product.id } })).status).toBe(400);
  });

  it("soft-deletes with 204: gone from reads and lists with its shop SKUs, row kept", async () => {
    const sku = await t.db.sku.create({ data: { organisationId: t.organisation.id, productId: t.product.id, displayName: "Doomed" } });
    const shopSku = await t.db.shopSku.create({ data: { shopId: t.shop.id, shopProductId: t.shopProduct.id, skuId: sku.id, price: 1 } });
    const r = await del(`${M}/skus/${sku.id}`, { key: t.keys.management });
    expect(r.status).toBe(204);
    expect(r.text).toBe("");
    expect((await get(`${M}/skus/${sku.id}`, { key: t.keys.management })).status).toBe(404);
    expect((await patch(`${M}/skus/${sku.id}`, { key: t.keys.management, body: { pzn: "1" } })).status).toBe(404);
    expect((await del(`${M}/skus/${sku.id}`, { key: t.keys.management })).status).toBe(404);
    const list = await get(`${M}/skus`, { key: t.keys.management, query: { search: "Doomed" } });
    expect(list.json.totalRegistries).toBe(0);
    expect((await t.db.sku.findUniqueOrThrow({ where: { id: sku.id } })).deletedAt).toBeInstanceOf(Date);
    expect((await get(`${M}/shop-skus/${shopSku.id}`, { key: t.keys.management })).status).toBe(404);
  });

  it("answers 404 for another organisation's SKU on every operation", async () => {
    const path = `${M}/skus/${other.sku.id}`;
    expect((await get(path, { key: t.keys.management })).status).toBe(404);
    expect((await patch(path, { key: t.keys.management, body: { pzn: "9" } })).status).toBe(404);
    expect((await del(path, { key: t.keys.management })).status).toBe(404);
    expect((await t.db.sku.findUniqueOrThrow({ where: { id: other.sku.id } })).deletedAt).toBeNull();
  });
});

describe("shop SKUs", () => {
  const create = (body: Record<string, unknown>, key = t.keys.management) => post(`${M}/shop-skus`, { key, body });
  const base = () => ({ shop_uid: t.shop.id, shop_product_uid: t.shopProduct.id, price: 999 });

  it("creates with 201 and reads back", async () => {
    const r = await create({ ...base(), sku_uid: t.sku.id, shop_sku: "ASP-500", shop_variation_id: "v-100", image_url: "https://img.example/a.png", last_synced_stock: 7 });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      uid: expect.any(String),
      shop_uid: t.shop.id,
      shop_product_uid: t.shopProduct.id,
      sku_uid: t.sku.id,
      shop_sku: "ASP-500",
      shop_variation_id: "v-100",
      price: 999,
      image_url: "https://img.example/a.png",
      last_synced_stock: 7,
    });
    expect((await get(`${M}/shop-skus/${r.json.uid}`, { key: t.keys.management })).json).toEqual(r.json);
    await t.db.shopSku.delete({ where: { id: r.json.uid } });
  });

  it("refuses references outside the organisation or a shop product of another shop", async () => {
    const before = await t.db.shopSku.count();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base(), shop_uid: other.shop.id }, "shop_uid"],
      [{ ...base(), shop_product_uid: t.otherShopProduct.id }, "shop_product_uid"],
      [{ ...base(), sku_uid: other.sku.id }, "sku_uid"],
      [{ ...base(), sku_uid: t.rxSku.id }, "sku_uid"],
      [{ ...base(), price: 9.99 }, "price"],
      [{ ...base(), price: "999" }, "price"],
      [{ ...base(), price: -1 }, "price"],
      [{ ...base(), image_url: "javascript:alert(1)" }, "image_url"],
    ];
    for (const [body, field] of cases) {
      const r = await create(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(r.json.error)).toEqual([field]);
    }
    expect(await t.db.shopSku.count()).toBe(before);
  });

  it("allows one live shop SKU per sku_uid and per shop_variation_id within a shop (409, nothing changed)", async () => {
    const first = await create({ ...base(), sku_uid: t.sku.id, shop_variation_id: "v-1" });
    expect(first.status).toBe(201);
    const before = await t.db.shopSku.count();
    const sameSku = await create({ ...base(), sku_uid: t.sku.id, shop_variation_id: "v-2" });
    expect(sameSku).toMatchObject({ status: 409, json: { error: "Shop SKU already exists" } });
    const sameVariation = await create({ ...base(), shop_variation_id: "v-1" });
    expect(sameVariation.status).toBe(409);
    expect(await t.db.shopSku.count()).toBe(before);

    // Another shop may carry the same SKU and variation id.
    const elsewhere = await create({ shop_uid: t.otherShop.id, shop_product_uid: t.otherShopProduct.id, price: 1, sku_uid: t.sku.id, shop_variation_id: "v-1" });
    expect(elsewhere.status).toBe(201);

    // Updating another shop SKU into a duplicate is refused and changes nothing.
    const second = await create({ ...base(), shop_variation_id: "v-3", shop_sku: "keep" });
    const clash = await patch(`${M}/shop-skus/${second.json.uid}`, { key: t.keys.management, body: { shop_variation_id: "v-1", shop_sku: "changed" } });
    expect(clash.status).toBe(409);
    const unchanged = await t.db.shopSku.findUniqueOrThrow({ where: { id: second.json.uid } });
    expect(unchanged).toMatchObject({ shopVariationId: "v-3", shopSku: "keep" });

    // Re-sending a shop SKU's own values is accepted.
    const own = await patch(`${M}/shop-skus/${first.json.uid}`, { key: t.keys.management, body: { sku_uid: t.sku.id, shop_variation_id: "v-1", price: 1000 } });
    expect(own).toMatchObject({ status: 200, json: { price: 1000 } });

    // A deleted shop SKU frees its values.
    expect((await del(`${M}/shop-skus/${first.json.uid}`, { key: t.keys.management })).status).toBe(204);
    expect((await get(`${M}/shop-skus/${first.json.uid}`, { key: t.keys.management })).status).toBe(404);
    const again = await create({ ...base(), sku_uid: t.sku.id, shop_variation_id: "v-1" });
    expect(again.status).toBe(201);
    await t.db.shopSku.deleteMany({ where: { shopId: { in: [t.shop.id, t.otherShop.id] } } });
  });

  it("creates exactly one under concurrent duplicates", async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => create({ ...base(), shop_variation_id: "race" })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(11);
    expect(await t.db.shopSku.count({ where: { shopId: t.shop.id, shopVariationId: "race", deletedAt: null } })).toBe(1);
    await t.db.shopSku.deleteMany({ where: { shopId: t.shop.id } });
  });

  it("lists with shop_uid filter and prefix search on variation id or shop SKU", async () => {
    await create({ ...base(), shop_variation_id: "alpha-1", shop_sku: "ZED" });
    await create({ ...base(), shop_variation_id: "beta-1", shop_sku: "alp-sku" });
    await create({ shop_uid: t.otherShop.id, shop_product_uid: t.otherShopProduct.id, price: 5, shop_variation_id: "alpha-2" });
    const list = async (query: Record<string, string>) => (await get(`${M}/shop-skus`, { key: t.keys.management, query })).json;
    expect((await list({})).totalRegistries).toBe(3);
    expect((await list({ shop_uid: t.shop.id })).totalRegistries).toBe(2);
    expect((await list({ search: "ALP" })).data.map((s: { shop_variation_id: string }) => s.shop_variation_id).sort()).toEqual(["alpha-1", "alpha-2", "beta-1"]);
    expect((await list({ shop_uid: t.shop.id, search: "alpha" })).totalRegistries).toBe(1);
    expect((await list({ search: "pha" })).totalRegistries).toBe(0);
    expect((await list({ shop_uid: other.shop.id })).totalRegistries).toBe(0);
    expect((await get(`${M}/shop-skus`, { key: other.keys.management })).json.totalRegistries).toBe(0);
  });

  it("bounds integers by their column (int4): last_synced_stock and price over 2147483647 are field errors", async () => {
    const before = await t.db.shopSku.count();
    for (const [field, value] of [["last_synced_stock", 2147483648], ["last_synced_stock", -2147483649], ["price", 2147483648]] as const) {
      const r = await create({ ...base(), sku_uid: t.sku.id, shop_variation_id: `int4-${field}-${value}`, [field]: value });
      expect(r.status, `${field}=${value}`).toBe(400);
      expect(Object.keys(r.json.error)).toEqual([field]);
    }
    expect(await t.db.shopSku.count()).toBe(before);
  });

  it("updates the updatable fields; price cannot be null; another organisation's shop SKU is 404", async () => {
    const created = await create({ ...base(), shop_variation_id: "upd" });
    const path = `${M}/shop-skus/${created.json.uid}`;
    expect((await patch(path, { key: t.keys.management, body: { price: null } })).status).toBe(400);
    const r = await patch(path, { key: t.keys.management, body: { sku_uid: t.sku.id, shop_sku: null, image_url: null, last_synced_stock: 3, price: 10 } });
    expect(r.json).toMatchObject({ sku_uid: t.sku.id, shop_sku: null, last_synced_stock: 3, price: 10, shop_variation_id: "upd" });
    expect((await patch(path, { key: other.keys.management, body: { price: 1 } })).status).toBe(404);
    expect((await del(path, { key: other.keys.management })).status).toBe(404);
    expect((await get(path, { key: other.keys.management })).status).toBe(404);
  });
});
