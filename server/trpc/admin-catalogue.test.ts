/**
 * The admin tool's catalogue and pharmacy stock procedures: the Management API's rules through the
 * same domain functions (uniqueness conflicts as field errors), the admin as the actor of every
 * change (audit events, stock movements), and who may call them.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { handleTrpcRequest } from "./handler";
import { createCaller } from "./router";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { trpcCode } from "@/tests/trpc";
import { createPortalUser } from "@/tests/webhook-logs";
import { LOW_STOCK_THRESHOLD } from "@/server/domain/catalogue/stock-threshold";

let t: Tenant;
let other: Tenant;
let admin: PortalSessionUser;
let pharmacist: PortalSessionUser;
let doctor: PortalSessionUser;
const as = (user: PortalSessionUser | null) => createCaller({ user, locale: "en" });

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  const organisationId = t.organisation.id;
  admin = await createPortalUser(t.db, { role: "ADMIN", organisationId });
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId, pharmacyId: t.pharmacy.id });
  const doctorRow = await t.db.doctor.create({ data: { organisationId, displayName: "Dr. Catalogue" } });
  doctor = await createPortalUser(t.db, { role: "DOCTOR", organisationId, doctorId: doctorRow.id });
});

/** A call over HTTP (handleTrpcRequest), for its code and the field errors the forms show. */
async function failure(path: string, input: unknown, user: PortalSessionUser = admin) {
  const response = await handleTrpcRequest(
    new Request(`http://localhost:3000/api/trpc/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) }),
    async () => user,
  );
  expect(response.ok).toBe(false);
  const body = (await response.json()) as { error: { data: { code: string; fieldErrors: Record<string, unknown> | null } } };
  return { code: body.error.data.code, fieldErrors: body.error.data.fieldErrors };
}

const auditCount = (tenant: Tenant) => tenant.db.auditEvent.count({ where: { organisationId: tenant.organisation.id } });

describe("who may call", () => {
  // Every procedure with an input of the tenant's own: refused before anything runs.
  const calls = (user: PortalSessionUser | null) => {
    const c = as(user);
    // Thunks: each call starts when it is awaited (a refused call never rejects unobserved).
    return [
      () => c.admin.catalogue.shops(),
      () => c.admin.catalogue.products.list({}),
      () => c.admin.catalogue.products.get({ uid: t.product.id }),
      () => c.admin.catalogue.products.create({ displayName: "X", prescriptionRequired: false }),
      () => c.admin.catalogue.products.update({ uid: t.product.id, displayName: "X" }),
      () => c.admin.catalogue.products.delete({ uid: t.product.id }),
      () => c.admin.catalogue.products.addShopProduct({ productUid: t.product.id, shopUid: t.shop.id, externalId: "x" }),
      () => c.admin.catalogue.skus.list({}),
      () => c.admin.catalogue.skus.create({ productUid: t.product.id, displayName: "X" }),
      () => c.admin.catalogue.skus.update({ uid: t.sku.id, displayName: "X" }),
      () => c.admin.catalogue.skus.delete({ uid: t.sku.id }),
      () => c.admin.catalogue.shopSkus.list({}),
      () => c.admin.catalogue.shopSkus.create({ shopUid: t.shop.id, shopProductUid: t.shopProduct.id, price: 1 }),
      () => c.admin.catalogue.shopSkus.update({ uid: t.sku.id, price: 1 }),
      () => c.admin.catalogue.shopSkus.delete({ uid: t.sku.id }),
      () => c.admin.catalogue.pharmacies(),
      () => c.admin.pharmacyStock.list({ pharmacyUid: t.pharmacy.id }),
      () => c.admin.pharmacyStock.update({ pharmacyUid: t.pharmacy.id, pharmacySkuUid: t.pharmacySku.id, stock: 99 }),
      () => c.admin.pharmacyStock.movements({ pharmacyUid: t.pharmacy.id, pharmacySkuUid: t.pharmacySku.id }),
    ];
  };

  it("signed out: UNAUTHORIZED; a pharmacist or a doctor: FORBIDDEN; nothing written", async () => {
    const before = await auditCount(t);
    for (const [user, code] of [
      [null, "UNAUTHORIZED"],
      [pharmacist, "FORBIDDEN"],
      [doctor, "FORBIDDEN"],
    ] as const) {
      for (const call of calls(user)) expect(await trpcCode(call())).toBe(code);
    }
    expect(await auditCount(t)).toBe(before);
    expect((await t.db.pharmacySku.findUniqueOrThrow({ where: { id: t.pharmacySku.id } })).stock).toBe(10);
    expect((await t.db.product.findUniqueOrThrow({ where: { id: t.product.id } })).displayName).toBe("Aspirin");
  });

  it("another organisation's uids: NOT_FOUND (or a field error for a referenced one), nothing written", async () => {
    const before = { audit: await auditCount(other), ours: await auditCount(t) };
    const c = as(admin);
    for (const call of [
      () => c.admin.catalogue.products.get({ uid: other.product.id }),
      () => c.admin.catalogue.products.update({ uid: other.product.id, displayName: "Stolen" }),
      () => c.admin.catalogue.products.delete({ uid: other.product.id }),
      () => c.admin.catalogue.products.addShopProduct({ productUid: other.product.id, shopUid: t.shop.id, externalId: "x" }),
      () => c.admin.catalogue.skus.update({ uid: other.sku.id, displayName: "Stolen" }),
      () => c.admin.catalogue.skus.delete({ uid: other.sku.id }),
      () => c.admin.pharmacyStock.list({ pharmacyUid: other.pharmacy.id }),
      () => c.admin.pharmacyStock.update({ pharmacyUid: other.pharmacy.id, pharmacySkuUid: other.pharmacySku.id, stock: 1 }),
      () => c.admin.pharmacyStock.update({ pharmacyUid: t.pharmacy.id, pharmacySkuUid: other.pharmacySku.id, stock: 1 }),
      () => c.admin.pharmacyStock.movements({ pharmacyUid: other.pharmacy.id, pharmacySkuUid: other.pharmacySku.id }),
    ]) {
      expect(await trpcCode(call())).toBe("NOT_FOUND");
    }
    const otherShopSku = await as(await createPortalUser(other.db, { role: "ADMIN", organisationId: other.organisation.id })).admin.catalogue.shopSkus.create({
      shopUid: other.shop.id,
      shopProductUid: other.shopProduct.id,
      skuUid: other.sku.id,
      price: 100,
    });
    const afterSetup = await auditCount(other);
    expect(await trpcCode(c.admin.catalogue.shopSkus.update({ uid: otherShopSku.uid, price: 1 }))).toBe("NOT_FOUND");
    expect(await trpcCode(c.admin.catalogue.shopSkus.delete({ uid: otherShopSku.uid }))).toBe("NOT_FOUND");
    // A reference to another organisation's row is a field of the form.
    expect(await failure("admin.catalogue.skus.create", { productUid: other.product.id, displayName: "X" })).toEqual({
      code: "BAD_REQUEST",
      fieldErrors: { productUid: ["Product not found."] },
    });
    expect((await failure("admin.catalogue.shopSkus.create", { shopUid: other.shop.id, shopProductUid: other.shopProduct.id, price: 1 })).fieldErrors).toEqual({
      shopUid: ["Shop not found."],
    });
    expect((await c.admin.catalogue.shopSkus.list({ shopUid: other.shop.id })).total).toBe(0);
    expect((await c.admin.catalogue.products.list({})).items.some((p) => p.uid === other.product.id)).toBe(false);
    expect(await auditCount(other)).toBe(afterSetup);
    expect(afterSetup).toBe(before.audit + 1);
    expect(await auditCount(t)).toBe(before.ours);
    expect((await other.db.pharmacySku.findUniqueOrThrow({ where: { id: other.pharmacySku.id } })).stock).toBe(10);
    expect((await other.db.product.findUniqueOrThrow({ where: { id: other.product.id } })).deletedAt).toBeNull();
  });
});

describe("products, SKUs and shop SKUs", () => {
  it("creates, edits and deletes a product, a SKU and a shop SKU, each with an audit event by the admin", async () => {
    const c = as(admin);
    const product = await c.admin.catalogue.products.create({ displayName: " Ibuprofen ", handle: "", prescriptionRequired: false });
    expect(product).toMatchObject({ displayName: "Ibuprofen", handle: null, prescriptionRequired: false, skuCount: 0 });
    const listing = await c.admin.catalogue.products.addShopProduct({ productUid: product.uid, shopUid: t.shop.id, externalId: "ibu-1" });
    const sku = await c.admin.catalogue.skus.create({ productUid: product.uid, displayName: "Ibuprofen 400 mg", pzn: "12345678", pcs: 20 });
    expect(sku).toMatchObject({ productUid: product.uid, displayName: "Ibuprofen 400 mg", pzn: "12345678", pcs: 20, digital: false });
    expect(await c.admin.catalogue.skus.update({ uid: sku.uid, pcs: 50, pzn: "" })).toMatchObject({ pcs: 50, pzn: null });
    const shopSku = await c.admin.catalogue.shopSkus.create({ shopUid: t.shop.id, shopProductUid: listing.uid, skuUid: sku.uid, shopVariationId: "ibu-var", price: 399 });
    expect(await c.admin.catalogue.shopSkus.update({ uid: shopSku.uid, price: 449 })).toMatchObject({ price: 449, shopVariationId: "ibu-var" });

    const detail = await c.admin.catalogue.products.get({ uid: product.uid });
    expect(detail.skus).toHaveLength(1);
    expect(detail.skus[0].shopSkus).toEqual([expect.objectContaining({ uid: shopSku.uid, price: 449 })]);
    expect(detail.shopProducts).toEqual([{ uid: listing.uid, shopUid: t.shop.id, externalId: "ibu-1" }]);
    const shopList = await c.admin.catalogue.shopSkus.list({ shopUid: t.shop.id, search: "ibu" });
    expect(shopList.items).toEqual([expect.objectContaining({ uid: shopSku.uid, sku: { displayName: "Ibuprofen 400 mg", pzn: null } })]);
    expect((await c.admin.catalogue.skus.list({ search: "ibuprofen" })).items.map((s) => s.uid)).toEqual([sku.uid]);
    expect((await c.admin.catalogue.products.list({ search: "ibupro" })).items.map((p) => p.uid)).toEqual([product.uid]);

    // A product with SKUs is not deleted; its SKUs go first (the SKU takes its shop SKUs with it).
    expect(await trpcCode(c.admin.catalogue.products.delete({ uid: product.uid }))).toBe("CONFLICT");
    await c.admin.catalogue.skus.delete({ uid: sku.uid });
    expect(await trpcCode(c.admin.catalogue.shopSkus.delete({ uid: shopSku.uid }))).toBe("NOT_FOUND");
    await c.admin.catalogue.products.update({ uid: product.uid, displayName: "Ibuprofen forte" });
    await c.admin.catalogue.products.delete({ uid: product.uid });
    expect(await trpcCode(c.admin.catalogue.products.get({ uid: product.uid }))).toBe("NOT_FOUND");

    const events = await t.db.auditEvent.findMany({
      where: { organisationId: t.organisation.id, entityId: { in: [product.uid, sku.uid, shopSku.uid] } },
      orderBy: { createdAt: "asc" },
    });
    expect(events.map((e) => [e.entityType, e.action])).toEqual([
      ["product", "created"],
      ["product", "listed_in_shop"],
      ["sku", "created"],
      ["sku", "updated"],
      ["shop_sku", "created"],
      ["shop_sku", "updated"],
      ["sku", "deleted"],
      ["product", "updated"],
      ["product", "deleted"],
    ]);
    expect(events.every((e) => e.actorType === "USER" && e.actorUserId === admin.id)).toBe(true);
    expect(events.find((e) => e.entityType === "sku" && e.action === "deleted")?.summary).toBe(
      'SKU "Ibuprofen 400 mg" deleted with 1 shop SKU(s) and 0 pharmacy SKU(s)',
    );
  });

  it("answers the spec's shop SKU uniqueness conflicts with the clashing field, and writes nothing", async () => {
    const c = as(admin);
    const first = await c.admin.catalogue.shopSkus.create({ shopUid: t.shop.id, shopProductUid: t.shopProduct.id, skuUid: t.sku.id, shopVariationId: "dup-var", price: 100 });
    const before = { rows: await t.db.shopSku.count(), audit: await auditCount(t) };

    expect(await failure("admin.catalogue.shopSkus.create", { shopUid: t.shop.id, shopProductUid: t.shopProduct.id, shopVariationId: "dup-var", price: 1 })).toEqual({
      code: "CONFLICT",
      fieldErrors: { shopVariationId: ["This shop already has a shop SKU with this variation id."] },
    });
    expect(await failure("admin.catalogue.shopSkus.create", { shopUid: t.shop.id, shopProductUid: t.shopProduct.id, skuUid: t.sku.id, price: 1 })).toEqual({
      code: "CONFLICT",
      fieldErrors: { skuUid: ["This shop already has a shop SKU for this SKU."] },
    });
    const second = await c.admin.catalogue.shopSkus.create({ shopUid: t.shop.id, shopProductUid: t.shopProduct.id, shopVariationId: "other-var", price: 1 });
    expect((await failure("admin.catalogue.shopSkus.update", { uid: second.uid, shopVariationId: "dup-var" })).fieldErrors).toEqual({
      shopVariationId: ["This shop already has a shop SKU with this variation id."],
    });
    // Its own current values are accepted; another shop may carry the same.
    await c.admin.catalogue.shopSkus.update({ uid: first.uid, shopVariationId: "dup-var", skuUid: t.sku.id });
    await c.admin.catalogue.shopSkus.create({ shopUid: t.otherShop.id, shopProductUid: t.otherShopProduct.id, skuUid: t.sku.id, shopVariationId: "dup-var", price: 1 });

    // A shop product's external id is unique per shop.
    expect(await failure("admin.catalogue.products.addShopProduct", { productUid: t.product.id, shopUid: t.shop.id, externalId: t.shopProduct.externalId })).toEqual({
      code: "CONFLICT",
      fieldErrors: { externalId: ["This shop already lists a product under this external id."] },
    });
    expect(await t.db.shopSku.count()).toBe(before.rows + 2);
    // The second create, the accepted update and the other shop's create.
    expect(await auditCount(t)).toBe(before.audit + 3);
  });

  it("a double click creates one shop SKU: the other gets the conflict", async () => {
    const c = as(admin);
    const input = { shopUid: t.shop.id, shopProductUid: t.rxShopProduct.id, skuUid: t.rxSku.id, shopVariationId: "race-var", price: 100 };
    const results = await Promise.allSettled([c.admin.catalogue.shopSkus.create(input), c.admin.catalogue.shopSkus.create(input)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await t.db.shopSku.count({ where: { shopId: t.shop.id, shopVariationId: "race-var", deletedAt: null } })).toBe(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((rejected.reason as { code: string }).code).toBe("CONFLICT");
  });

  it("refuses bad input with field errors, never a partial write", async () => {
    const before = await t.db.sku.count();
    expect((await failure("admin.catalogue.skus.create", { productUid: t.product.id, displayName: "  " })).fieldErrors).toHaveProperty("displayName");
    expect((await failure("admin.catalogue.skus.create", { productUid: t.product.id, displayName: "X", pcs: -1 })).fieldErrors).toHaveProperty("pcs");
    expect((await failure("admin.catalogue.products.create", { displayName: "", prescriptionRequired: true })).fieldErrors).toHaveProperty("displayName");
    expect((await failure("admin.catalogue.shopSkus.create", { shopUid: t.shop.id, shopProductUid: t.shopProduct.id, price: -5 })).fieldErrors).toHaveProperty("price");
    expect(
      (await failure("admin.catalogue.shopSkus.create", { shopUid: t.shop.id, shopProductUid: t.shopProduct.id, skuUid: t.rxSku.id, price: 5 })).fieldErrors,
    ).toEqual({ skuUid: ["The SKU belongs to another product than the shop product."] });
    expect(await t.db.sku.count()).toBe(before);
  });
});

describe("duplicate handles and PZNs (issue 22 item 9: warned, not refused)", () => {
  it("names the other products with the handle (any case) and the other SKUs with the PZN, in this organisation only", async () => {
    const c = as(admin);
    const found = await c.admin.catalogue.duplicates({ handle: `  ${t.product.handle!.toUpperCase()} `, pzn: "11111111" });
    expect(found.products).toEqual([{ uid: t.product.id, displayName: "Aspirin" }]);
    expect(found.skus).toEqual([{ uid: t.sku.id, displayName: "Aspirin 500 mg", productUid: t.product.id }]);
    // The product or SKU being edited is not its own duplicate.
    const own = await c.admin.catalogue.duplicates({ handle: t.product.handle!, exceptProductUid: t.product.id, pzn: "11111111", exceptSkuUid: t.sku.id });
    expect(own).toEqual({ products: [], skus: [] });
    // Another organisation's catalogue is not looked at; nothing asked, nothing found.
    expect(await as(admin).admin.catalogue.duplicates({ handle: other.product.handle!, pzn: "x-none" })).toEqual({ products: [], skus: [] });
    expect(await c.admin.catalogue.duplicates({})).toEqual({ products: [], skus: [] });
  });

  it("still accepts the duplicate (the spec makes neither unique), and a deleted product no longer counts", async () => {
    const c = as(admin);
    const twin = await c.admin.catalogue.products.create({ displayName: "Aspirin twin", handle: t.product.handle!, prescriptionRequired: false });
    const sku = await c.admin.catalogue.skus.create({ productUid: twin.uid, displayName: "Twin 500 mg", pzn: "11111111" });
    expect((await c.admin.catalogue.duplicates({ handle: t.product.handle!, exceptProductUid: t.product.id })).products.map((p) => p.uid)).toEqual([twin.uid]);
    expect((await c.admin.catalogue.duplicates({ pzn: "11111111", exceptSkuUid: t.sku.id })).skus.map((s) => s.uid)).toEqual([sku.uid]);
    await c.admin.catalogue.skus.delete({ uid: sku.uid });
    await c.admin.catalogue.products.delete({ uid: twin.uid });
    expect(await c.admin.catalogue.duplicates({ handle: t.product.handle!, pzn: "11111111", exceptProductUid: t.product.id, exceptSkuUid: t.sku.id })).toEqual({ products: [], skus: [] });
  });

  it("is the admin's only", async () => {
    expect(await trpcCode(as(pharmacist).admin.catalogue.duplicates({ handle: "x" }))).toBe("FORBIDDEN");
  });
});

describe("pharmacy stock", () => {
  it("lists a pharmacy's SKUs and edits stock and price with a movement and an audit event by the admin", async () => {
    const c = as(admin);
    expect((await c.admin.catalogue.pharmacies()).map((p) => p.displayName)).toEqual(["Apotheke A", "Apotheke B", "Apotheke C"]);
    const list = await c.admin.pharmacyStock.list({ pharmacyUid: t.groupPharmacy.id });
    expect(list.items.map((i) => i.uid)).toEqual([t.groupPharmacySku.id]);
    expect((await c.admin.pharmacyStock.list({ pharmacyUid: t.pharmacy.id, search: "e-voucher" })).items.map((i) => i.uid)).toEqual([t.digitalPharmacySku.id]);

    const updated = await c.admin.pharmacyStock.update({ pharmacyUid: t.groupPharmacy.id, pharmacySkuUid: t.groupPharmacySku.id, stock: 8 });
    expect(updated).toMatchObject({ stock: 8, price: 470 });
    await c.admin.pharmacyStock.update({ pharmacyUid: t.groupPharmacy.id, pharmacySkuUid: t.groupPharmacySku.id, price: 520 });
    // The same stock again: no movement, no event.
    await c.admin.pharmacyStock.update({ pharmacyUid: t.groupPharmacy.id, pharmacySkuUid: t.groupPharmacySku.id, stock: 8 });

    const movements = await c.admin.pharmacyStock.movements({ pharmacyUid: t.groupPharmacy.id, pharmacySkuUid: t.groupPharmacySku.id });
    expect(movements).toEqual([expect.objectContaining({ delta: 5, stockAfter: 8, reason: "manual_change", by: { type: "USER", uid: admin.id, name: admin.name } })]);
    const row = await t.db.stockMovement.findFirstOrThrow({ where: { pharmacySkuId: t.groupPharmacySku.id } });
    expect(row).toMatchObject({ actorType: "USER", actorUserId: admin.id, actorApiKeyId: null });
    expect(await t.db.outboxEvent.count({ where: { eventType: "pharmacy_sku_stock_updated", subjectId: t.groupPharmacySku.id } })).toBe(1);
    const audits = await t.db.auditEvent.findMany({ where: { entityId: t.groupPharmacySku.id }, orderBy: { createdAt: "asc" } });
    expect(audits.map((a) => a.summary)).toEqual(['"Aspirin 500 mg" at Apotheke B: stock 3 → 8', '"Aspirin 500 mg" at Apotheke B: price 4.70 → 5.20 EUR']);
    expect(audits.every((a) => a.entityType === "pharmacy_sku" && a.actorUserId === admin.id)).toBe(true);

    // The portal's rules: a pharmacy SKU of another pharmacy is not this pharmacy's; bad values are field errors.
    expect(await trpcCode(c.admin.pharmacyStock.update({ pharmacyUid: t.pharmacy.id, pharmacySkuUid: t.groupPharmacySku.id, stock: 1 }))).toBe("NOT_FOUND");
    expect((await failure("admin.pharmacyStock.update", { pharmacyUid: t.pharmacy.id, pharmacySkuUid: t.pharmacySku.id, stock: -1 })).fieldErrors).toHaveProperty("stock");
  });

  it("two concurrent stock edits leave one consistent ledger", async () => {
    const c = as(admin);
    const edit = (stock: number) => c.admin.pharmacyStock.update({ pharmacyUid: t.loosePharmacy.id, pharmacySkuUid: loose.id, stock });
    const loose = await t.db.pharmacySku.create({ data: { pharmacyId: t.loosePharmacy.id, skuId: t.sku.id, externalId: "C-1", price: 100, stock: 0 } });
    await Promise.all([edit(5), edit(5)]);
    const rows = await t.db.stockMovement.findMany({ where: { pharmacySkuId: loose.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ delta: 5, stockAfter: 5 });
    expect(await t.db.auditEvent.count({ where: { entityId: loose.id } })).toBe(1);
  });

  it("says per pharmacy how many SKUs run out, and lists only those when asked", async () => {
    const c = as(admin);
    const low = await t.db.pharmacySku.create({
      data: { pharmacyId: t.loosePharmacy.id, skuId: t.digitalSku.id, externalId: "LOW-1", price: 100, stock: LOW_STOCK_THRESHOLD },
    });
    const plenty = await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: LOW_STOCK_THRESHOLD + 1 } });
    const counts = new Map((await c.admin.catalogue.pharmacies()).map((p) => [p.uid, p.runningOut]));
    const lowAtLoose = await t.db.pharmacySku.count({ where: { pharmacyId: t.loosePharmacy.id, deletedAt: null, stock: { lte: LOW_STOCK_THRESHOLD } } });
    expect(counts.get(t.loosePharmacy.id)).toBe(lowAtLoose);
    const running = await c.admin.pharmacyStock.list({ pharmacyUid: t.loosePharmacy.id, maxStock: LOW_STOCK_THRESHOLD });
    expect(running.items.map((i) => i.uid)).toContain(low.id);
    expect(running.items.every((i) => i.stock <= LOW_STOCK_THRESHOLD)).toBe(true);
    const atMain = await c.admin.pharmacyStock.list({ pharmacyUid: t.pharmacy.id, maxStock: LOW_STOCK_THRESHOLD });
    expect(atMain.items.map((i) => i.uid)).not.toContain(plenty.id);
  });
});
