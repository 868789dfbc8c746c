import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { del, get, patch } from "@/tests/http";

let t: Tenant;
let hiding: Tenant;
beforeAll(async () => {
  t = await createTenant();
  hiding = await createTenant({ hiddenSkuType: "DIGITAL" });
});

const BASE = "/v1/external_pharmacy_api/pharmacy_skus";

const movements = (pharmacySkuId: string) =>
  t.db.stockMovement.findMany({ where: { pharmacySkuId }, orderBy: { sequence: "asc" } });
const stockEvents = (tenant: Tenant, subjectId: string) =>
  tenant.db.outboxEvent.count({ where: { eventType: "pharmacy_sku_stock_updated", subjectId } });

describe("list", () => {
  it("caps a larger limit at 200 (spec: max 200) when there are more than 200 rows", async () => {
    const many = await createTenant();
    // One live pharmacy SKU per SKU: 230 SKUs of the tenant's product, each stocked by its pharmacy.
    const skus = await many.db.sku.createManyAndReturn({
      data: Array.from({ length: 230 }, (_, i) => ({ organisationId: many.organisation.id, productId: many.product.id, displayName: `Cap ${i}` })),
    });
    await many.db.pharmacySku.createMany({
      data: skus.map((sku, i) => ({ pharmacyId: many.pharmacy.id, skuId: sku.id, externalId: `CAP-${i}`, price: 100, stock: 1 })),
    });
    const total = await many.db.pharmacySku.count({ where: { pharmacyId: many.pharmacy.id, deletedAt: null } });
    expect(total).toBeGreaterThan(200);
    const r = await get(`${BASE}/`, { key: many.keys.pharmacy, query: { limit: "1000" } });
    expect(r.status).toBe(200);
    expect(r.json.data).toHaveLength(200);
    expect(r.json.totalRegistries).toBe(total);
    expect(r.json.totalPages).toBe(Math.ceil(total / 200));
    const last = await get(`${BASE}/`, { key: many.keys.pharmacy, query: { limit: "1000", page: "1" } }); // pages count from 0
    expect(last.json.data).toHaveLength(total - 200);
  });

  it("lists the key's pharmacy SKUs in the spec's shape", async () => {
    const r = await get(`${BASE}/`, { key: t.keys.pharmacy });
    expect(r.status).toBe(200);
    expect(r.json.totalRegistries).toBe(2);
    expect(r.json.totalPages).toBe(1);
    expect(r.json.data[0]).toEqual({
      uid: t.pharmacySku.id,
      external_id: "A-1",
      price: 450,
      stock: 10,
      pharmacy: t.pharmacy.id,
      sku: {
        uid: t.sku.id,
        display_name: "Aspirin 500 mg",
        pzn: "11111111",
        product_uid: t.product.id,
        product_display_name: "Aspirin",
        standard_selling_unit: null,
        unit: null,
        product_handle: t.product.handle,
        digital: false,
      },
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
      deleted_at: null,
    });
  });

  it("leaves out deleted pharmacy SKUs, and those of a SKU deleted through the Management API", async () => {
    const sku = await t.db.sku.create({ data: { organisationId: t.organisation.id, productId: t.product.id, displayName: "Gone" } });
    const doomed = await t.db.pharmacySku.create({ data: { pharmacyId: t.pharmacy.id, skuId: sku.id, externalId: "G", price: 1, stock: 1 } });
    await t.db.pharmacySku.create({ data: { pharmacyId: t.pharmacy.id, skuId: t.rxSku.id, externalId: "D", price: 1, stock: 1, deletedAt: new Date() } });
    expect((await get(BASE, { key: t.keys.pharmacy })).json.totalRegistries).toBe(3);
    expect((await del(`/v1/management/skus/${sku.id}`, { key: t.keys.management })).status).toBe(204);
    expect((await get(BASE, { key: t.keys.pharmacy })).json.totalRegistries).toBe(2);
    const gone = await patch(`${BASE}/${doomed.id}/stock`, { key: t.keys.pharmacy, body: { stock: 5 } });
    expect(gone.status).toBe(404);
  });

  it("hides the account's hidden SKU type from the list and its totals", async () => {
    const r = await get(BASE, { key: hiding.keys.pharmacy });
    expect(r.json.totalRegistries).toBe(1);
    expect(r.json.data.map((s: { uid: string }) => s.uid)).toEqual([hiding.pharmacySku.id]);
  });

  it("needs stock_read", async () => {
    expect((await get(BASE, { key: t.keys.pharmacyStockRead })).status).toBe(200);
    expect((await get(BASE, { key: t.keys.pharmacyOrdersRead })).json).toEqual({ error: "Permission denied" });
  });
});

describe("updates", () => {
  it("updates price, stock and external_id together, with a stock movement and an event", async () => {
    const r = await patch(`${BASE}/${t.pharmacySku.id}`, { key: t.keys.pharmacy, body: { price: 1299, stock: 100, external_id: "PMS-1" } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ uid: t.pharmacySku.id, price: 1299, stock: 100, external_id: "PMS-1" });
    const moves = await movements(t.pharmacySku.id);
    expect(moves).toHaveLength(1);
    expect(moves[0]).toMatchObject({ delta: 90, stockAfter: 100, reason: "STOCK_UPDATE", actorType: "API_KEY" });
    expect(await stockEvents(t, t.pharmacySku.id)).toBe(1);
  });

  it("records no movement and no event when the stock does not change", async () => {
    const before = (await movements(t.pharmacySku.id)).length;
    const r = await patch(`${BASE}/${t.pharmacySku.id}`, { key: t.keys.pharmacy, body: { stock: 100, price: 1300 } });
    expect(r.json).toMatchObject({ stock: 100, price: 1300 });
    expect(await movements(t.pharmacySku.id)).toHaveLength(before);
    expect(await stockEvents(t, t.pharmacySku.id)).toBe(1);
  });

  it("sets stock through /stock and the external id through /external_id", async () => {
    let r = await patch(`${BASE}/${t.pharmacySku.id}/stock`, { key: t.keys.pharmacy, body: { stock: 42 } });
    expect(r).toMatchObject({ status: 200, json: { stock: 42 } });
    expect((await movements(t.pharmacySku.id)).at(-1)).toMatchObject({ delta: -58, stockAfter: 42 });
    r = await patch(`${BASE}/${t.pharmacySku.id}/external_id/`, { key: t.keys.pharmacy, body: { external_id: "PMS-2" } });
    expect(r).toMatchObject({ status: 200, json: { external_id: "PMS-2", stock: 42 } });
    expect(await stockEvents(t, t.pharmacySku.id)).toBe(2);
  });

  it("rejects bad values with field errors and changes nothing", async () => {
    const before = await t.db.pharmacySku.findUniqueOrThrow({ where: { id: t.pharmacySku.id } });
    const cases: [string, unknown, string][] = [
      ["", { price: 12.99 }, "price"],
      ["", { price: "1299" }, "price"],
      ["", { stock: -1 }, "stock"],
      ["", { external_id: "" }, "external_id"],
      ["/stock", {}, "stock"],
      ["/stock", { stock: 1.5 }, "stock"],
      ["/stock", { stock: null }, "stock"],
      ["/external_id", { external_id: 5 }, "external_id"],
    ];
    for (const [suffix, body, field] of cases) {
      const r = await patch(`${BASE}/${t.pharmacySku.id}${suffix}`, { key: t.keys.pharmacy, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(r.json.error)).toEqual([field]);
    }
    const after = await t.db.pharmacySku.findUniqueOrThrow({ where: { id: t.pharmacySku.id } });
    expect(after).toEqual(before);
  });

  it("answers 404 for a SKU of another pharmacy, of another organisation, or of the hidden type", async () => {
    const attempts: [string, string][] = [
      [t.keys.pharmacy, t.groupPharmacySku.id],
      [t.keys.loosePharmacy, t.pharmacySku.id],
      [t.keys.pharmacy, hiding.pharmacySku.id],
      [hiding.keys.pharmacy, hiding.digitalPharmacySku.id],
    ];
    for (const [key, id] of attempts) {
      for (const [suffix, body] of [["", { stock: 1 }], ["/stock", { stock: 1 }], ["/external_id", { external_id: "x" }]] as const) {
        const r = await patch(`${BASE}/${id}${suffix}`, { key, body });
        expect(r).toMatchObject({ status: 404, json: { error: "Resource not found" } });
      }
    }
    expect((await hiding.db.pharmacySku.findUniqueOrThrow({ where: { id: hiding.digitalPharmacySku.id } })).stock).toBe(5);
  });

  it("lets a group key update a group pharmacy's SKU with pharmacy_uid", async () => {
    const r = await patch(`${BASE}/${t.groupPharmacySku.id}/stock`, {
      key: t.keys.pharmacyGroup,
      query: { pharmacy_uid: t.groupPharmacy.id },
      body: { stock: 30 },
    });
    expect(r).toMatchObject({ status: 200, json: { stock: 30, pharmacy: t.groupPharmacy.id } });
    const wrongScope = await patch(`${BASE}/${t.groupPharmacySku.id}/stock`, {
      key: t.keys.pharmacyGroup,
      query: { pharmacy_uid: t.pharmacy.id },
      body: { stock: 31 },
    });
    expect(wrongScope.status).toBe(404);
  });

  it("needs stock_write", async () => {
    const r = await patch(`${BASE}/${t.pharmacySku.id}/stock`, { key: t.keys.pharmacyStockRead, body: { stock: 1 } });
    expect(r).toMatchObject({ status: 403, json: { error: "Permission denied" } });
  });

  it("keeps the movement ledger exact under concurrent stock updates", async () => {
    const start = (await t.db.pharmacySku.findUniqueOrThrow({ where: { id: t.pharmacySku.id } })).stock;
    const before = (await movements(t.pharmacySku.id)).length;
    const targets = Array.from({ length: 20 }, (_, i) => 200 + i);
    const results = await Promise.all(
      targets.map((stock) => patch(`${BASE}/${t.pharmacySku.id}/stock`, { key: t.keys.pharmacy, body: { stock } })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const final = (await t.db.pharmacySku.findUniqueOrThrow({ where: { id: t.pharmacySku.id } })).stock;
    const added = (await movements(t.pharmacySku.id)).slice(before);
    expect(added).toHaveLength(20);
    expect(added.reduce((sum, m) => sum + m.delta, 0)).toBe(final - start);
    expect(added.at(-1)!.stockAfter).toBe(final);
    // Each movement starts where the previous one ended: no lost update.
    let level = start;
    for (const m of added) {
      expect(level + m.delta).toBe(m.stockAfter);
      level = m.stockAfter;
    }
  });
});
