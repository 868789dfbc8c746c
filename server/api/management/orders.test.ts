import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, patch, post } from "@/tests/http";
import { address, item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";

let t: Tenant;
let other: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  refs = await withShopSkus(t);
  await withShopSkus(other);
  await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 1000 } });
});

const M = "/v1/management";
const EPA = "/v1/external_pharmacy_api/pharmacy_orders";

async function newOrder(overrides: Record<string, unknown> = {}) {
  const body = orderBody(t, [item(refs.otcReference)], overrides);
  const r = await placeOrder(t, body);
  expect(r.status).toBe(201);
  return { body, order: r.json };
}

describe("reading orders", () => {
  it("lists the organisation's orders newest first as {orders, totalRegistries, totalPages}", async () => {
    const { order: older } = await newOrder();
    const { order: newer } = await newOrder();
    await placeOrder(other, { ...orderBody(other, [item(`var-otc-${other.shop.id}`)]) });
    const r = await get(`${M}/orders`, { key: t.keys.management });
    expect(Object.keys(r.json)).toEqual(["orders", "totalRegistries", "totalPages"]);
    const uids = r.json.orders.map((o: { uid: string }) => o.uid);
    expect(uids.indexOf(newer.uid)).toBeLessThan(uids.indexOf(older.uid));
    expect(r.json.orders.every((o: { shop_order: { shop: { uid: string } } }) => o.shop_order.shop.uid === t.shop.id)).toBe(true);
    expect((await get(`${M}/orders/${older.uid}`, { key: other.keys.management })).status).toBe(404);
    expect((await get(`${M}/orders/unknown`, { key: t.keys.management })).json).toEqual({ error: "Resource not found" });
  });

  it("filters by shop, shop order external id and inclusive creation and update bounds", async () => {
    const { body, order } = await newOrder();
    const list = async (query: Record<string, string | number>) =>
      (await get(`${M}/orders`, { key: t.keys.management, query })).json.orders.map((o: { uid: string }) => o.uid);
    expect(await list({ shop_identifier: t.shop.identifier, shop_order_external_id: body.external_id })).toEqual([order.uid]);
    expect(await list({ shop_identifier: other.shop.identifier, shop_order_external_id: body.external_id })).toEqual([]);
    expect(await list({ shop_identifier: t.otherShop.identifier })).toEqual([]);
    const created = order.created_at;
    expect(await list({ created_at_from: created, created_at_to: created, shop_order_external_id: body.external_id })).toEqual([order.uid]);
    expect(await list({ created_at_from: created + 1, shop_order_external_id: body.external_id })).toEqual([]);
    expect(await list({ updated_at_to: order.updated_at - 1, shop_order_external_id: body.external_id })).toEqual([]);
    expect(await list({ updated_at_from: order.updated_at, shop_order_external_id: body.external_id })).toEqual([order.uid]);
    const bad = await get(`${M}/orders`, { key: t.keys.management, query: { created_at_from: "last week" } });
    expect(bad.status).toBe(400);
  });

  it("searches shop order name, pharmacy order name and patient name, and exact uids with a leading # stripped", async () => {
    const { order } = await newOrder({ name: "#SHOP-4711", customer: { id: "c-search" }, delivery_address: { ...address, first_name: "Gustav", last_name: "Gans" } });
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: order.uid } });
    const search = async (term: string) =>
      (await get(`${M}/orders`, { key: t.keys.management, query: { search: term } })).json.orders.map((o: { uid: string }) => o.uid);
    expect(await search("shop-471")).toEqual([order.uid]);
    expect(await search(po.name.slice(3, 9).toLowerCase())).toEqual([order.uid]);
    expect(await search("gustav gans")).toEqual([order.uid]);
    expect(await search(`#${order.uid}`)).toEqual([order.uid]);
    expect(await search(po.id)).toEqual([order.uid]);
    expect(await search(order.uid.slice(0, 8))).toEqual([]);
  });

  it("hides prescriptions and items' prescription_uid without prescription:read", async () => {
    const { order } = await newOrder();
    const full = await get(`${M}/orders/${order.uid}`, { key: t.keys.management });
    expect(full.json.items[0]).toHaveProperty("prescription_uid");
    const { plaintext } = await (await import("@/server/auth/api-keys")).createApiKey({
      family: "MANAGEMENT",
      displayName: "orders only",
      permissions: ["order:read"],
      organisationId: t.organisation.id,
    });
    const limited = await get(`${M}/orders/${order.uid}`, { key: plaintext });
    expect(limited.json.prescriptions).toEqual([]);
    expect(limited.json.items[0]).not.toHaveProperty("prescription_uid");
    expect((await get(`${M}/orders`, { key: plaintext })).json.orders[0].items[0]).not.toHaveProperty("prescription_uid");
  });
});

describe("adding a fulfillment", () => {
  it("adds and routes a fulfillment with 201; a repeated fulfillment external_id is 409", async () => {
    const { body } = await newOrder();
    const path = `${M}/orders/${encodeURIComponent(body.external_id)}/fulfillments`;
    const r = await post(path, { key: t.keys.management, body: { external_id: "f-2", items: [item(refs.otcReference)] } });
    expect(r.status).toBe(201);
    expect(r.json.fulfillment_orders.map((f: { external_id: string }) => f.external_id)).toEqual(["f-1", "f-2"]);
    expect(await t.db.pharmacyOrder.count({ where: { orderId: r.json.uid } })).toBe(2);
    const again = await post(path, { key: t.keys.management, body: { external_id: "f-2", items: [item(refs.otcReference)] } });
    expect(again.status).toBe(409);
    expect(await t.db.fulfillment.count({ where: { orderId: r.json.uid } })).toBe(2);
  });

  it("keeps item external_ids unique across the order and checks references", async () => {
    const { body, order } = await newOrder();
    const existingItem = (await t.db.orderItem.findFirstOrThrow({ where: { orderId: order.uid } })).externalId;
    const path = `${M}/orders/${encodeURIComponent(body.external_id)}/fulfillments`;
    let r = await post(path, { key: t.keys.management, body: { external_id: "f-3", items: [item(refs.otcReference, { external_id: existingItem })] } });
    expect(r.status).toBe(400);
    expect(r.json.error.items["0"].external_id).toBeDefined();
    r = await post(path, { key: t.keys.management, body: { external_id: "f-3", items: [item("nope")] } });
    expect(r.json.error.items["0"].sku_reference).toBeDefined();
    expect(await t.db.fulfillment.count({ where: { orderId: order.uid } })).toBe(1);
    expect((await post(`${M}/orders/unknown/fulfillments`, { key: t.keys.management, body: { external_id: "x", items: [item(refs.otcReference)] } })).status).toBe(404);
  });
});

describe("updating an order", () => {
  it("updates addresses, priority, customer email and shipping cost; pharmacy orders see it", async () => {
    const { body, order } = await newOrder({ shipping_cost: { amount: 495, currency: "EUR" } });
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: order.uid } });
    const r = await patch(`${M}/orders/${encodeURIComponent(body.external_id)}`, {
      key: t.keys.management,
      body: {
        delivery_address: { ...address, city: "Potsdam" },
        priority: 7,
        customer: { email: "new@example.com" },
        shipping_cost: { amount: 0, currency: "EUR" },
      },
    });
    expect(r.status).toBe(200);
    const stored = await t.db.order.findUniqueOrThrow({ where: { id: order.uid } });
    expect(stored).toMatchObject({ priority: 7, customerEmail: "new@example.com", shippingCostAmount: 0 });
    const seen = await get(`${EPA}/${po.id}`, { key: t.keys.pharmacy });
    expect(seen.json.order).toMatchObject({ priority: 7, delivery_address: { city: "Potsdam" }, invoice_address: { city: "Berlin" } });
    expect(seen.json.shipping_costs_amount).toBe(0);
    expect(await t.db.outboxEvent.count({ where: { eventType: "pharmacy_order_updated", subjectId: po.id } })).toBe(1);
  });

  it("refuses a body with items, and bad values, changing nothing", async () => {
    const { body, order } = await newOrder();
    const path = `${M}/orders/${encodeURIComponent(body.external_id)}`;
    let r = await patch(path, { key: t.keys.management, body: { items: [], priority: 9 } });
    expect(r.status).toBe(400);
    expect(r.json.error.items).toBeDefined();
    r = await patch(path, { key: t.keys.management, body: { priority: 1.5, delivery_address: { ...address, country: "XX" } } });
    expect(Object.keys(r.json.error).sort()).toEqual(["delivery_address", "priority"]);
    expect((await t.db.order.findUniqueOrThrow({ where: { id: order.uid } })).priority).toBe(0);
    expect((await patch(`${M}/orders/unknown`, { key: t.keys.management, body: { priority: 1 } })).status).toBe(404);
  });
});

describe("cancelling a fulfillment", () => {
  const cancel = (orderExternalId: string, fulfillmentExternalId = "f-1") =>
    post(`${M}/orders/${encodeURIComponent(orderExternalId)}/fulfillments/${fulfillmentExternalId}/cancel`, { key: t.keys.management });

  it("cancels while the pharmacy has not started: fulfillment, items and pharmacy order cancelled", async () => {
    const { body, order } = await newOrder();
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: order.uid } });
    await patch(`${EPA}/${po.id}/status`, { key: t.keys.pharmacy, body: { status: "pending review" } });
    const r = await cancel(body.external_id);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      status: "cancelled",
      overall_status: "cancelled",
      fulfillment_orders: [{ external_id: "f-1", status: "CANCELLED", items: [{ status: "CANCELLED" }] }],
    });
    expect((await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: po.id } })).status).toBe("cancelled");
    const history = await t.db.pharmacyOrderHistory.findMany({ where: { pharmacyOrderId: po.id }, orderBy: { createdAt: "asc" } });
    expect(history.at(-1)).toMatchObject({ fromStatus: "pending review", toStatus: "cancelled", actorType: "API_KEY" });
    // Idempotent.
    expect((await cancel(body.external_id)).status).toBe(200);
  });

  it("refuses with 409 once the pharmacy is preparing, and 404 for unknown ones", async () => {
    const { body, order } = await newOrder();
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: order.uid } });
    await patch(`${EPA}/${po.id}/status`, { key: t.keys.pharmacy, body: { status: "in-progress" } });
    const r = await cancel(body.external_id);
    expect(r.status).toBe(409);
    expect(r.json.error).toMatch(/no longer cancellable/);
    expect((await t.db.fulfillment.findFirstOrThrow({ where: { orderId: order.uid } })).status).toBe("OPEN");
    expect((await cancel(body.external_id, "nope")).status).toBe(404);
    expect((await cancel("nope")).status).toBe(404);
  });

  it("keeps the order going when one of two fulfillments is cancelled", async () => {
    const { body, order } = await newOrder();
    await post(`${M}/orders/${encodeURIComponent(body.external_id)}/fulfillments`, {
      key: t.keys.management,
      body: { external_id: "f-2", items: [item(refs.otcReference)] },
    });
    const r = await cancel(body.external_id, "f-2");
    expect(r.json).toMatchObject({ status: "waiting for pharmacy", overall_status: "pending" });
    const remaining = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: order.uid, fulfillment: { externalId: "f-1" } } });
    await patch(`${EPA}/${remaining.id}/complete_order`, { key: t.keys.pharmacy });
    const done = await get(`${M}/orders/${order.uid}`, { key: t.keys.management });
    expect(done.json).toMatchObject({ status: "completed", overall_status: "completed" });
  });
});
