/**
 * The pharmacy portal's stock and prices, shipping methods and payouts procedures: the same rules
 * as the REST doors (hidden SKU type, stock movements and events, pharmacy_mapping in the detail,
 * payout rows), and the pharmacy scope (another pharmacy's uid is NOT_FOUND).
 */
import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { presentPayoutRow } from "@/server/api/pharmacy-payouts/payout.presenters";
import { completePharmacyOrder } from "@/server/domain/pharmacy-orders/complete";
import { handleTrpcRequest } from "./handler";
import { createCaller } from "./router";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, patch } from "@/tests/http";
import { createTestOrder, eur, item, offerSku, routedOrderBody } from "@/tests/orders";
import { trpcCode } from "@/tests/trpc";
import { createPortalUser } from "@/tests/webhook-logs";

let t: Tenant;
let other: Tenant;
let hiding: Tenant;
let pharmacist: PortalSessionUser;
let groupPharmacist: PortalSessionUser;
let hidingPharmacist: PortalSessionUser;
let otherPharmacist: PortalSessionUser;

const as = (user: PortalSessionUser) => createCaller({ user, locale: "en" });

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  hiding = await createTenant({ hiddenSkuType: "DIGITAL" });
  const organisationId = t.organisation.id;
  pharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId, pharmacyId: t.pharmacy.id });
  groupPharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId, pharmacyGroupId: t.group.id });
  hidingPharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: hiding.organisation.id, pharmacyId: hiding.pharmacy.id });
  otherPharmacist = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: other.organisation.id, pharmacyId: other.pharmacy.id });
  await offerSku(t, { shopVariationId: "var-aspirin", price: 600 });
});

const stockEvents = (tenant: Tenant, subjectId: string) => tenant.db.outboxEvent.count({ where: { eventType: "pharmacy_sku_stock_updated", subjectId } });

describe("pharmacy.stock.list", () => {
  it("lists the pharmacy's SKUs with stock, price and external id, and pages", async () => {
    const result = await as(pharmacist).pharmacy.stock.list({});
    expect(result).toMatchObject({ total: 2, page: 0, limit: 25, totalPages: 1 });
    expect(result.items[0]).toEqual({
      uid: t.pharmacySku.id,
      externalId: "A-1",
      price: 450,
      stock: 10,
      pharmacyUid: t.pharmacy.id,
      sku: { uid: t.sku.id, displayName: "Aspirin 500 mg", pzn: "11111111", digital: false, productDisplayName: "Aspirin" },
      updatedAt: expect.any(Number),
    });
    const second = await as(pharmacist).pharmacy.stock.list({ limit: 1, page: 1 });
    expect(second).toMatchObject({ total: 2, totalPages: 2 });
    expect(second.items.map((i) => i.uid)).toEqual([t.digitalPharmacySku.id]);
  });

  it("searches display name, PZN and external id, case-insensitively, with % as a literal", async () => {
    const uids = async (search: string) => (await as(pharmacist).pharmacy.stock.list({ search })).items.map((i) => i.uid);
    expect(await uids("VOUCHER")).toEqual([t.digitalPharmacySku.id]);
    expect(await uids("1111")).toEqual([t.pharmacySku.id]);
    expect(await uids("a-2")).toEqual([t.digitalPharmacySku.id]);
    expect(await uids("aspirin")).toEqual([t.pharmacySku.id, t.digitalPharmacySku.id]);
    expect(await uids("%")).toEqual([]);
    expect((await as(pharmacist).pharmacy.stock.list({ search: "1111" })).total).toBe(1);
  });

  it("never lists the hidden SKU type", async () => {
    const result = await as(hidingPharmacist).pharmacy.stock.list({});
    expect(result.total).toBe(1);
    expect(result.items.map((i) => i.uid)).toEqual([hiding.pharmacySku.id]);
    expect((await as(hidingPharmacist).pharmacy.stock.list({ search: "voucher" })).total).toBe(0);
  });

  it("a group pharmacist must name a pharmacy of the group; other pharmacies are NOT_FOUND", async () => {
    expect(await trpcCode(as(groupPharmacist).pharmacy.stock.list({}))).toBe("NOT_FOUND");
    const b = await as(groupPharmacist).pharmacy.stock.list({ pharmacyUid: t.groupPharmacy.id });
    expect(b.items.map((i) => i.uid)).toEqual([t.groupPharmacySku.id]);
    expect(await trpcCode(as(groupPharmacist).pharmacy.stock.list({ pharmacyUid: t.loosePharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(pharmacist).pharmacy.stock.list({ pharmacyUid: t.groupPharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(otherPharmacist).pharmacy.stock.list({ pharmacyUid: t.pharmacy.id }))).toBe("NOT_FOUND");
  });
});

describe("pharmacy.stock.update", () => {
  it("a stock change writes one movement by the user and one pharmacy_sku_stock_updated event, like REST", async () => {
    const fresh = await t.db.pharmacySku.create({ data: { pharmacyId: t.pharmacy.id, skuId: t.rxSku.id, externalId: "A-RX", price: 900, stock: 4 } });
    const updated = await as(pharmacist).pharmacy.stock.update({ pharmacySkuUid: fresh.id, stock: 12 });
    expect(updated).toMatchObject({ uid: fresh.id, stock: 12, price: 900, externalId: "A-RX" });
    const movements = await t.db.stockMovement.findMany({ where: { pharmacySkuId: fresh.id } });
    expect(movements).toEqual([
      expect.objectContaining({ delta: 8, stockAfter: 12, reason: "STOCK_UPDATE", actorType: "USER", actorUserId: pharmacist.id, actorApiKeyId: null }),
    ]);
    expect(await stockEvents(t, fresh.id)).toBe(1);
    // The same stock again changes nothing and records nothing.
    await as(pharmacist).pharmacy.stock.update({ pharmacySkuUid: fresh.id, stock: 12 });
    expect(await t.db.stockMovement.count({ where: { pharmacySkuId: fresh.id } })).toBe(1);
    expect(await stockEvents(t, fresh.id)).toBe(1);
    // The REST list shows what the portal set.
    const rest = await get("/v1/external_pharmacy_api/pharmacy_skus/", { key: t.keys.pharmacy, query: { limit: 100 } });
    expect(rest.json.data.find((r: { uid: string }) => r.uid === fresh.id)).toMatchObject({ stock: 12 });
  });

  it("sets price and external id without a movement or an event", async () => {
    const updated = await as(pharmacist).pharmacy.stock.update({ pharmacySkuUid: t.digitalPharmacySku.id, price: 1299, externalId: "A-2b" });
    expect(updated).toMatchObject({ price: 1299, externalId: "A-2b", stock: 5 });
    expect(await t.db.stockMovement.count({ where: { pharmacySkuId: t.digitalPharmacySku.id } })).toBe(0);
    expect(await stockEvents(t, t.digitalPharmacySku.id)).toBe(0);
  });

  it("refuses bad values with field errors and changes nothing", async () => {
    for (const input of [{ stock: -1 }, { stock: 1.5 }, { price: -5 }, { externalId: "  " }]) {
      const error = (await as(pharmacist).pharmacy.stock.update({ pharmacySkuUid: t.pharmacySku.id, ...input } as never).catch((e: unknown) => e)) as TRPCError;
      expect(error.code).toBe("BAD_REQUEST");
    }
    expect((await t.db.pharmacySku.findUniqueOrThrow({ where: { id: t.pharmacySku.id } })).stock).toBe(10);
  });

  it("never edits the hidden SKU type, another pharmacy's SKU or one of another organisation: NOT_FOUND", async () => {
    expect(await trpcCode(as(hidingPharmacist).pharmacy.stock.update({ pharmacySkuUid: hiding.digitalPharmacySku.id, stock: 1 }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(pharmacist).pharmacy.stock.update({ pharmacySkuUid: t.groupPharmacySku.id, stock: 1 }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(pharmacist).pharmacy.stock.update({ pharmacySkuUid: other.pharmacySku.id, stock: 1 }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(pharmacist).pharmacy.stock.update({ pharmacyUid: t.groupPharmacy.id, pharmacySkuUid: t.groupPharmacySku.id, stock: 1 }))).toBe(
      "NOT_FOUND",
    );
    expect(await trpcCode(as(groupPharmacist).pharmacy.stock.update({ pharmacySkuUid: t.groupPharmacySku.id, stock: 1 }))).toBe("NOT_FOUND");
    for (const sku of [hiding.digitalPharmacySku, t.groupPharmacySku, other.pharmacySku]) {
      const tenant = sku === hiding.digitalPharmacySku ? hiding : sku === other.pharmacySku ? other : t;
      expect((await tenant.db.pharmacySku.findUniqueOrThrow({ where: { id: sku.id } })).stock).toBe(sku.stock);
    }
    // A group pharmacist naming the SKU's pharmacy may.
    const updated = await as(groupPharmacist).pharmacy.stock.update({ pharmacyUid: t.groupPharmacy.id, pharmacySkuUid: t.groupPharmacySku.id, stock: 7 });
    expect(updated.stock).toBe(7);
  });
});

describe("pharmacy.stock.movements", () => {
  it("shows recent movements newest first: manual changes by user or key, and completions with their order", async () => {
    const newSku = await t.db.sku.create({ data: { organisationId: t.organisation.id, productId: t.product.id, displayName: "Aspirin 100 mg" } });
    const sku = await t.db.pharmacySku.create({ data: { pharmacyId: t.pharmacy.id, skuId: newSku.id, externalId: "A-M", price: 450, stock: 20 } });
    await as(pharmacist).pharmacy.stock.update({ pharmacySkuUid: sku.id, stock: 30 });
    expect((await patch(`/v1/external_pharmacy_api/pharmacy_skus/${sku.id}/stock`, { key: t.keys.pharmacy, body: { stock: 25 } })).status).toBe(200);
    const mine = await as(pharmacist).pharmacy.stock.movements({ pharmacySkuUid: sku.id, limit: 5 });
    expect(mine.map((m) => [m.reason, m.delta, m.stockAfter, m.by.type, m.pharmacyOrder])).toEqual([
      ["manual_change", -5, 25, "API_KEY", null],
      ["manual_change", 10, 30, "USER", null],
    ]);
    expect(mine[1].by).toEqual({ type: "USER", uid: pharmacist.id, name: pharmacist.name });
    expect(mine[0].by.name).toMatch(/^PHARMACY /);
    expect(mine[0].createdAt).toEqual(expect.any(Number));
    expect(await as(pharmacist).pharmacy.stock.movements({ pharmacySkuUid: sku.id, limit: 1 })).toHaveLength(1);

    // Completion reduces the stock of the order's pharmacy SKU (aspirin at pharmacy A: A-1).
    const body = routedOrderBody(t, "mov-1", t.pharmacy.id, [item("var-aspirin", { external_id: "mov-1-i1", quantity: 2, total_paid: eur(1200) })]);
    const po = (await createTestOrder(t, body)).pharmacyOrders[0];
    await completePharmacyOrder(t.pharmacy.id, po.id, [], { type: "SYSTEM" });
    const [completion] = await as(pharmacist).pharmacy.stock.movements({ pharmacySkuUid: t.pharmacySku.id });
    expect(completion).toMatchObject({ reason: "order_completion", delta: -2, pharmacyOrder: { uid: po.id, name: po.name }, by: { type: "SYSTEM", uid: null, name: null } });
  });

  it("is NOT_FOUND for the hidden type, another pharmacy's SKU, and another organisation's", async () => {
    expect(await trpcCode(as(hidingPharmacist).pharmacy.stock.movements({ pharmacySkuUid: hiding.digitalPharmacySku.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(pharmacist).pharmacy.stock.movements({ pharmacySkuUid: t.groupPharmacySku.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(pharmacist).pharmacy.stock.movements({ pharmacySkuUid: other.pharmacySku.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(pharmacist).pharmacy.stock.movements({ pharmacyUid: t.loosePharmacy.id, pharmacySkuUid: t.pharmacySku.id }))).toBe("NOT_FOUND");
  });
});

describe("shippingMethods", () => {
  const detail = async (pharmacyOrderId: string) => {
    const r = await get(`/v1/external_pharmacy_api/pharmacy_orders/${pharmacyOrderId}/`, { key: t.keys.pharmacy });
    expect(r.status, r.text).toBe(200);
    return r.json as { shop_shipping_methods: { uid: string; external_id: string; pharmacy_mapping: unknown }[] };
  };

  it("lists every shipping method of the organisation's shops, unmapped ones too, and saves mappings the REST detail then carries", async () => {
    // Before any order names one: the empty list (the portal's empty state; the e2e sandbox cannot show it).
    expect(await as(pharmacist).pharmacy.shippingMethods.list()).toEqual([]);
    const body = routedOrderBody(t, "ship-1", t.pharmacy.id, [item("var-aspirin", { external_id: "ship-1-i1", total_paid: eur(600) })], {
      shipping_methods: ["standard", "express"],
    });
    const po = (await createTestOrder(t, body)).pharmacyOrders[0];
    // A method of the other shop that no order has used yet, and one of another organisation.
    const later = await t.db.shopShippingMethod.create({ data: { shopId: t.otherShop.id, externalId: "same-day", displayName: "Same day" } });
    const foreign = await other.db.shopShippingMethod.create({ data: { shopId: other.shop.id, externalId: "standard", displayName: "standard" } });

    const listed = await as(pharmacist).pharmacy.shippingMethods.list();
    expect(listed.map((m) => [m.shop.uid, m.externalId, m.identifierForPharmacy])).toEqual([
      [t.shop.id, "express", null],
      [t.shop.id, "standard", null],
      [t.otherShop.id, "same-day", null],
    ]);
    expect(listed[0]).toEqual({
      uid: expect.any(String),
      displayName: "express",
      externalId: "express",
      shop: { uid: t.shop.id, displayName: "Shop", identifier: t.shop.identifier },
      identifierForPharmacy: null,
    });
    const standard = listed.find((m) => m.externalId === "standard")!;
    const express = listed.find((m) => m.externalId === "express")!;

    const saved = await as(pharmacist).pharmacy.shippingMethods.save({
      mappings: [
        { shopShippingMethodUid: standard.uid, identifier: "  DHL_PAKET " },
        { shopShippingMethodUid: express.uid, identifier: "" },
        { shopShippingMethodUid: later.id, identifier: "COURIER" },
      ],
    });
    expect(saved.map((m) => m.identifierForPharmacy)).toEqual([null, "DHL_PAKET", "COURIER"]);
    const methods = (await detail(po.id)).shop_shipping_methods;
    expect(methods.find((m) => m.uid === standard.uid)!.pharmacy_mapping).toEqual({
      pharmacy_uid: t.pharmacy.id,
      shipping_method_identifier_for_pharmacy: "DHL_PAKET",
    });
    expect(methods.find((m) => m.uid === express.uid)!.pharmacy_mapping).toBeNull();

    // Clearing an identifier removes the mapping; the method stays listed.
    await as(pharmacist).pharmacy.shippingMethods.save({ mappings: [{ shopShippingMethodUid: standard.uid, identifier: " " }] });
    expect(await t.db.pharmacyShippingMethodMapping.count({ where: { pharmacyId: t.pharmacy.id, shopShippingMethodId: standard.uid } })).toBe(0);
    expect((await detail(po.id)).shop_shipping_methods.map((m) => [m.external_id, m.pharmacy_mapping])).toEqual([
      ["express", null],
      ["standard", null],
    ]);
    expect((await as(pharmacist).pharmacy.shippingMethods.list()).map((m) => m.identifierForPharmacy)).toEqual([null, null, "COURIER"]);

    // A method of another organisation is not found, and nothing of the request is written.
    expect(
      await trpcCode(
        as(pharmacist).pharmacy.shippingMethods.save({
          mappings: [
            { shopShippingMethodUid: standard.uid, identifier: "X" },
            { shopShippingMethodUid: foreign.id, identifier: "X" },
          ],
        }),
      ),
    ).toBe("NOT_FOUND");
    expect(await t.db.pharmacyShippingMethodMapping.count({ where: { shopShippingMethodId: { in: [standard.uid, foreign.id] } } })).toBe(0);
  });

  it("keeps mappings per pharmacy, and answers NOT_FOUND for a pharmacy out of reach", async () => {
    const [method] = await as(pharmacist).pharmacy.shippingMethods.list();
    await as(groupPharmacist).pharmacy.shippingMethods.save({ pharmacyUid: t.groupPharmacy.id, mappings: [{ shopShippingMethodUid: method.uid, identifier: "B_OWN" }] });
    expect((await as(groupPharmacist).pharmacy.shippingMethods.list({ pharmacyUid: t.groupPharmacy.id }))[0].identifierForPharmacy).toBe("B_OWN");
    expect((await as(pharmacist).pharmacy.shippingMethods.list())[0].identifierForPharmacy).toBeNull();
    expect(await trpcCode(as(groupPharmacist).pharmacy.shippingMethods.list())).toBe("NOT_FOUND");
    expect(await trpcCode(as(pharmacist).pharmacy.shippingMethods.list({ pharmacyUid: t.groupPharmacy.id }))).toBe("NOT_FOUND");
    expect(
      await trpcCode(as(pharmacist).pharmacy.shippingMethods.save({ pharmacyUid: t.groupPharmacy.id, mappings: [{ shopShippingMethodUid: method.uid, identifier: "Z" }] })),
    ).toBe("NOT_FOUND");
    expect(await trpcCode(as(otherPharmacist).pharmacy.shippingMethods.save({ pharmacyUid: t.pharmacy.id, mappings: [] }))).toBe("NOT_FOUND");
    const tooLong = (await as(pharmacist)
      .pharmacy.shippingMethods.save({ mappings: [{ shopShippingMethodUid: method.uid, identifier: "x".repeat(256) }] })
      .catch((e: unknown) => e)) as TRPCError;
    expect(tooLong.code).toBe("BAD_REQUEST");
  });
});

describe("pharmacy.payouts.list", () => {
  type RestRow = ReturnType<typeof presentPayoutRow>;
  let routedOrder: { id: string; name: string };
  let openOrder: { id: string; name: string };

  beforeAll(async () => {
    const order = (id: string, paid: number, shipping?: number) =>
      createTestOrder(
        t,
        routedOrderBody(t, id, t.pharmacy.id, [item("var-aspirin", { external_id: `${id}-i1`, total_paid: eur(paid) })], shipping ? { shipping_cost: eur(shipping) } : {}),
      ).then((o) => o.pharmacyOrders[0]);
    routedOrder = await order("pay-1", 600, 495);
    await completePharmacyOrder(t.pharmacy.id, routedOrder.id, [], { type: "SYSTEM" });
    await t.db.pharmacyOrder.update({ where: { id: routedOrder.id }, data: { createdAt: new Date("2025-01-10T08:00:00Z") } });
    await t.db.payout.updateMany({ where: { pharmacyOrderId: routedOrder.id }, data: { routingCreatedAt: new Date("2025-02-01T00:00:00Z") } });
    openOrder = await order("pay-2", 800);
    await t.db.pharmacyOrder.update({ where: { id: openOrder.id }, data: { createdAt: new Date("2025-03-01T08:00:00Z") } });
    await t.db.payout.createMany({
      data: [
        { pharmacyOrderId: openOrder.id, receiverPharmacyId: t.pharmacy.id, status: "PROJECTED", amount: 450, currency: "EUR", componentType: "item_rest" },
        { pharmacyOrderId: openOrder.id, receiverPharmacyId: t.pharmacy.id, status: "PROJECTED", amount: 300, currency: "CHF", componentType: "shipping" },
        { pharmacyOrderId: openOrder.id, receiverPharmacyId: t.groupPharmacy.id, status: "PROJECTED", amount: 999, currency: "EUR", componentType: "item_rest" },
      ],
    });
  });

  /** Sums of REST rows per status and currency, the way a reader of the REST list would add them up. */
  const sums = (rows: RestRow[]) => {
    const by = new Map<string, { status: string; currency: string; amount: number; count: number }>();
    for (const row of rows) {
      const key = `${row.status}/${row.currency}`;
      const entry = by.get(key) ?? { status: row.status, currency: row.currency, amount: 0, count: 0 };
      entry.amount += row.amount;
      entry.count += 1;
      by.set(key, entry);
    }
    return [...by.values()].sort((a, b) => a.status.localeCompare(b.status) || a.currency.localeCompare(b.currency));
  };

  it("shows the REST payout rows and their totals per status and currency over all pages", async () => {
    const rest = await get("/v1/external-pharmacy-api-v1/payouts", { key: t.keys.pharmacy, query: { limit: 200 } });
    expect(rest.status, rest.text).toBe(200);
    const restRows = rest.json.data as RestRow[];
    const portal = await as(pharmacist).pharmacy.payouts.list({ limit: 200 });
    // The REST rows, plus the portal's review flag (none of these orders was cancelled after completion) and the receiving pharmacy;
    // the row's uid and provider route state are the admin tool's only.
    expect(portal.items).toEqual(restRows.map((row) => ({ ...row, review: null, pharmacy: { uid: t.pharmacy.id, displayName: "Apotheke A" }, uid: null, providerRouting: null })));
    expect(portal.total).toBe(restRows.length);
    expect(portal.totals).toEqual(sums(restRows));
    expect(portal.totals).toEqual([
      { status: "projected", currency: "CHF", amount: 300, count: 1 },
      { status: "projected", currency: "EUR", amount: 450, count: 1 },
      { status: "routed", currency: "EUR", amount: sums(restRows.filter((r) => r.status === "routed"))[0].amount, count: restRows.filter((r) => r.status === "routed").length },
    ]);
    expect(portal.totals[2].amount).toBeGreaterThan(0);
    // Totals cover every row the filters match, not only the page.
    const firstPage = await as(pharmacist).pharmacy.payouts.list({ limit: 1 });
    expect(firstPage.items).toHaveLength(1);
    expect(firstPage.totals).toEqual(portal.totals);
    expect(firstPage.totalPages).toBe(restRows.length);
  });

  it("filters by status and inclusive dates, as REST does, and the totals follow", async () => {
    const routed = await as(pharmacist).pharmacy.payouts.list({ status: "routed" });
    expect(routed.items.every((r) => r.status === "routed")).toBe(true);
    expect(routed.totals.map((x) => x.status)).toEqual(["routed"]);
    // Routed rows by routing time (2025-02-01), projected rows by their order's creation (2025-03-01).
    const feb = Date.UTC(2025, 1, 1) / 1000;
    const onlyRouting = await as(pharmacist).pharmacy.payouts.list({ from: feb, to: feb });
    expect(onlyRouting.items.map((r) => r.pharmacy_order_uid)).toEqual(onlyRouting.items.map(() => routedOrder.id));
    expect(onlyRouting.total).toBeGreaterThan(0);
    const march = Date.UTC(2025, 2, 1, 8) / 1000;
    const onlyProjected = await as(pharmacist).pharmacy.payouts.list({ from: march, to: march });
    expect(onlyProjected.totals).toEqual([
      { status: "projected", currency: "CHF", amount: 300, count: 1 },
      { status: "projected", currency: "EUR", amount: 450, count: 1 },
    ]);
    expect((await as(pharmacist).pharmacy.payouts.list({ from: march + 1, to: Date.UTC(2025, 11, 31) / 1000 })).totals).toEqual([]);
    expect(await trpcCode(as(pharmacist).pharmacy.payouts.list({ from: 10, to: 5 }))).toBe("BAD_REQUEST");
  });

  it("answers NOT_FOUND for a pharmacy out of reach, and a group pharmacist sees the pharmacy it names", async () => {
    expect(await trpcCode(as(pharmacist).pharmacy.payouts.list({ pharmacyUid: t.groupPharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(otherPharmacist).pharmacy.payouts.list({ pharmacyUid: t.pharmacy.id }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(groupPharmacist).pharmacy.payouts.list({}))).toBe("NOT_FOUND");
    const b = await as(groupPharmacist).pharmacy.payouts.list({ pharmacyUid: t.groupPharmacy.id });
    expect(b.totals).toEqual([{ status: "projected", currency: "EUR", amount: 999, count: 1 }]);
  });
});

describe("over HTTP", () => {
  const post = (path: string, input: unknown, user: PortalSessionUser) =>
    handleTrpcRequest(
      new Request(`http://localhost:3000/api/trpc/${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) }),
      async () => user,
    );
  type ErrorBody = { error: { data: { code: string; fieldErrors: Record<string, unknown> | null } } };

  it("refuses bad values with the field errors the pages show beside their fields", async () => {
    const stock = await post("pharmacy.stock.update", { pharmacySkuUid: t.pharmacySku.id, stock: -1 }, pharmacist);
    expect(stock.status).toBe(400);
    expect(((await stock.json()) as ErrorBody).error.data.fieldErrors).toEqual({ stock: ["Ensure this value is greater than or equal to 0."] });
    const [method] = await as(pharmacist).pharmacy.shippingMethods.list();
    const mapping = await post("pharmacy.shippingMethods.save", { mappings: [{ shopShippingMethodUid: method.uid, identifier: "x".repeat(256) }] }, pharmacist);
    expect(mapping.status).toBe(400);
    expect(((await mapping.json()) as ErrorBody).error.data.fieldErrors).toEqual({
      mappings: { "0": { identifier: ["Ensure this field has no more than 255 characters."] } },
    });
    const foreign = await post("pharmacy.stock.update", { pharmacySkuUid: t.groupPharmacySku.id, stock: 1 }, pharmacist);
    expect(foreign.status).toBe(404);
  });
});
