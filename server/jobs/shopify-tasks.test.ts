import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as webhookRoute from "@/app/api/shopify/webhooks/[shop]/route";
import { completePharmacyOrder } from "@/server/domain/pharmacy-orders/complete";
import { attemptTask } from "@/server/domain/tasks/attempt";
import { TASK_HANDLERS } from "@/server/jobs/task-handlers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { createTestOrder, item, offerSku, routedOrderBody } from "@/tests/orders";
import { paidOrderPayload, shopifyHmac, startShopifyStandIn, type ShopifyStandIn } from "@/tests/shopify-stand-in";
import { useEnv } from "@/tests/wait";
import { createPortalUser } from "@/tests/webhook-logs";
import { SHOPIFY_API_VERSION, shopifyAdminApi, ShopifyApiError } from "@/server/domain/shopify/admin-api";
import { saveShopifyConnection } from "@/server/domain/shopify/connection";
import { checkLiveStock } from "@/server/domain/storefront/live-stock";
import { availableQuantities } from "@/server/domain/storefront/stock";
import { PUSH_TRACKING_TASK, pushTrackingToShopify } from "@/server/domain/shopify/push-tracking";
import { listShopifyTaskProblems } from "@/server/domain/shopify/task-problems";

// The stand-in listens on loopback: the existing allowance of the outgoing-request guard.
useEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });

const TOKEN = "shpat_standin_token_1234";
const SECRET = "app-client-secret-abcd";

let standIn: ShopifyStandIn;
let t: Tenant;
let adminId: string;
const VARIANT = 44_000_001;

beforeAll(async () => {
  standIn = await startShopifyStandIn({ accessToken: TOKEN });
  t = await createTenant();
  adminId = (await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id })).id;
  // The catalogue maps the shop SKU to the Shopify variant by its GID.
  await offerSku(t, { shopVariationId: `gid://shopify/ProductVariant/${VARIANT}`, price: 1299 });
  await saveShopifyConnection(t.organisation.id, adminId, t.shop.id, { storeUrl: standIn.url, accessToken: TOKEN, clientSecret: SECRET });
});
afterAll(async () => {
  await standIn.close();
});
beforeEach(() => {
  standIn.requests.length = 0;
});

/** Records the client's waits instead of waiting, so no test depends on the clock. */
function recordingWait() {
  const waits: number[] = [];
  return { waits, wait: async (ms: number) => void waits.push(ms) };
}

describe("the Admin GraphQL client", () => {
  it("sends the query with the access token to the pinned version's endpoint", async () => {
    const data = await shopifyAdminApi({ storeUrl: standIn.url, accessToken: TOKEN }).request<{ shop: { name: string } }>("query ConnectionTest { shop { name myshopifyDomain } }");
    expect(data.shop.name).toBe("Stand-in Apotheke");
    const [request] = standIn.requests;
    expect(request.path).toBe(`/admin/api/${SHOPIFY_API_VERSION}/graphql.json`);
    expect(request.headers["x-shopify-access-token"]).toBe(TOKEN);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.query).toContain("shop { name myshopifyDomain }");
  });

  it("waits the announced Retry-After on a 429 and retries", async () => {
    const { waits, wait } = recordingWait();
    standIn.throttleNext({ kind: "429", retryAfter: "2.0" });
    const data = await shopifyAdminApi({ storeUrl: standIn.url, accessToken: TOKEN }, wait).request<{ shop: { name: string } }>("query ConnectionTest { shop { name } }");
    expect(data.shop.name).toBe("Stand-in Apotheke");
    expect(waits).toEqual([2000]);
    expect(standIn.requests).toHaveLength(2);
  });

  it("waits until the bucket has restored the query's cost on THROTTLED and retries", async () => {
    const { waits, wait } = recordingWait();
    // 100 requested, 40 available, 50 restored per second: 1.2 s.
    standIn.throttleNext({ kind: "throttled", requested: 100, available: 40, restoreRate: 50 });
    await shopifyAdminApi({ storeUrl: standIn.url, accessToken: TOKEN }, wait).request("query ConnectionTest { shop { name } }");
    expect(waits).toEqual([1200]);
    expect(standIn.requests).toHaveLength(2);
  });

  it("gives up after three retries and says the rate limit held", async () => {
    const { waits, wait } = recordingWait();
    standIn.throttleNext(...Array.from({ length: 4 }, () => ({ kind: "429" as const, retryAfter: "1" })));
    const failure = shopifyAdminApi({ storeUrl: standIn.url, accessToken: TOKEN }, wait).request("query ConnectionTest { shop { name } }");
    await expect(failure).rejects.toThrow(new ShopifyApiError("Shopify's rate limit was still exceeded after retrying.", true));
    expect(waits).toEqual([1000, 1000, 1000]);
  });

  it("names a refused token without retrying", async () => {
    const failure = shopifyAdminApi({ storeUrl: standIn.url, accessToken: "wrong" }).request("query ConnectionTest { shop { name } }");
    await expect(failure).rejects.toThrow("Shopify refused the access token (HTTP 401).");
    expect(standIn.requests).toHaveLength(1);
  });
});

const webhookUrl = (shopId: string) => `http://localhost:3000/api/shopify/webhooks/${shopId}`;

/** Delivers a webhook to the route module in-process, signed with `secret`. */
async function deliver(shopId: string, payload: unknown, secret = SECRET, topic = "orders/paid") {
  const raw = JSON.stringify(payload);
  const request = new Request(webhookUrl(shopId), {
    method: "POST",
    headers: { "content-type": "application/json", "x-shopify-topic": topic, "x-shopify-webhook-id": crypto.randomUUID(), "x-shopify-hmac-sha256": shopifyHmac(raw, secret) },
    body: raw,
  });
  const response = await webhookRoute.POST(request, { params: Promise.resolve({ shop: shopId }) });
  return { status: response.status, text: await response.text() };
}

describe("the order webhook", () => {
  it("refuses a body whose HMAC was made with another secret (401) and takes nothing", async () => {
    const answer = await deliver(t.shop.id, paidOrderPayload({ id: 5001, variantId: VARIANT }), "not-the-secret");
    expect(answer.status).toBe(401);
    expect(await t.db.order.count({ where: { organisationId: t.organisation.id, externalId: "5001" } })).toBe(0);
  });

  it("answers 404 for a shop without a Shopify connection and for an unknown shop", async () => {
    expect((await deliver(t.otherShop.id, paidOrderPayload({ id: 5002, variantId: VARIANT }))).status).toBe(404);
    expect((await deliver("no-such-shop", paidOrderPayload({ id: 5002, variantId: VARIANT }))).status).toBe(404);
  });

  it("takes a paid order through order intake with Shopify's order id as external id, mapped by variant", async () => {
    const answer = await deliver(t.shop.id, paidOrderPayload({ id: 5003, name: "#1003", variantId: VARIANT, quantity: 2 }));
    expect(answer).toEqual({ status: 200, text: JSON.stringify({ result: "created" }) });
    const order = await t.db.order.findFirstOrThrow({
      where: { organisationId: t.organisation.id, externalId: "5003" },
      include: { items: true, shopifyOrder: true, pharmacyOrders: true },
    });
    expect(order.name).toBe("#1003");
    expect(order.shopifyOrder).toMatchObject({ shopId: t.shop.id, shopifyOrderId: "5003" });
    expect(order.items).toHaveLength(1);
    expect(order.items[0]).toMatchObject({ skuId: t.sku.id, quantity: 2 });
    expect(order.deliveryAddress).toMatchObject({ street: "Hauptstraße", house_number: "5", zip_code: "10115", country: "DE" });
    // The OTC product is routed to a pharmacy at once.
    expect(order.pharmacyOrders).toHaveLength(1);
  });

  it("makes one order of concurrent and repeated deliveries of the same Shopify order", async () => {
    const payload = paidOrderPayload({ id: 5004, variantId: VARIANT });
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(t.shop.id, payload)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.text.includes("created"))).toHaveLength(1);
    expect((await deliver(t.shop.id, payload)).text).toContain("duplicate");
    expect(await t.db.order.count({ where: { organisationId: t.organisation.id, externalId: "5004" } })).toBe(1);
    expect(await t.db.shopifyOrder.count({ where: { shopifyOrderId: "5004" } })).toBe(1);
    const order = await t.db.order.findFirstOrThrow({ where: { organisationId: t.organisation.id, externalId: "5004" } });
    expect(await t.db.outboxEvent.count({ where: { subjectId: order.id, eventType: "order_created" } })).toBe(1);
  });

  it("acknowledges other topics and orders intake refuses without taking them", async () => {
    expect((await deliver(t.shop.id, paidOrderPayload({ id: 5005, variantId: VARIANT }), SECRET, "orders/create")).text).toContain("ignored");
    expect((await deliver(t.shop.id, paidOrderPayload({ id: 5006, variantId: 99 }))).text).toContain("rejected");
    expect(await t.db.order.count({ where: { organisationId: t.organisation.id, externalId: { in: ["5005", "5006"] } } })).toBe(0);
  });
});

describe("the tracking link sent back as a fulfillment", () => {
  async function shopifyPharmacyOrder(shopifyOrderId: number) {
    standIn.addOrder(String(shopifyOrderId));
    await deliver(t.shop.id, paidOrderPayload({ id: shopifyOrderId, variantId: VARIANT }));
    const order = await t.db.order.findFirstOrThrow({ where: { organisationId: t.organisation.id, externalId: String(shopifyOrderId) }, include: { pharmacyOrders: true } });
    return order.pharmacyOrders[0];
  }
  const tasksOf = (pharmacyOrderId: string) =>
    t.db.backgroundTask.findMany({ where: { name: PUSH_TRACKING_TASK, payload: { path: ["pharmacyOrderId"], equals: pharmacyOrderId } } });

  it("is a task written by complete_order, which the task runner's handler turns into fulfillmentCreate once", async () => {
    const pharmacyOrder = await shopifyPharmacyOrder(6001);
    const link = "https://www.dhl.de/track?piececode=00340434161094042557";
    await completePharmacyOrder(pharmacyOrder.pharmacyId, pharmacyOrder.id, [{ trackingLink: link, carrier: "DHL" }, { trackingLink: "https://ups.com/2", carrier: "UPS" }], { type: "SYSTEM" });
    const [task] = await tasksOf(pharmacyOrder.id);
    expect(task.payload).toEqual({ pharmacyOrderId: pharmacyOrder.id, shopId: t.shop.id, trackingUrl: link, carrier: "DHL" });

    expect(await attemptTask({ id: task.id, attempts: 0 }, TASK_HANDLERS)).toMatchObject({ state: "DONE" });
    const create = standIn.requests.find((r) => r.operation === "FulfillmentCreate")!;
    expect(create.headers["x-shopify-access-token"]).toBe(TOKEN);
    expect(create.query).toContain("fulfillmentCreate(fulfillment: $fulfillment)");
    expect(create.variables).toEqual({
      fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: "gid://shopify/FulfillmentOrder/60011" }], trackingInfo: { url: link, company: "DHL Express" }, notifyCustomer: true },
    });
    expect(standIn.orders.get("6001")!.fulfillments).toHaveLength(1);

    // Run again (at least once: a lost lease, a crash): it finds its link on the order and creates nothing.
    await pushTrackingToShopify(task.payload as Record<string, string>);
    expect(standIn.orders.get("6001")!.fulfillments).toHaveLength(1);
  });

  it("never blocks complete_order: a failing push is retried, listed for the admin tool, then done", async () => {
    const pharmacyOrder = await shopifyPharmacyOrder(6002);
    await completePharmacyOrder(pharmacyOrder.pharmacyId, pharmacyOrder.id, [{ trackingLink: "https://dpd.de/t/1", carrier: "DPD" }], { type: "SYSTEM" });
    expect((await t.db.pharmacyOrder.findUniqueOrThrow({ where: { id: pharmacyOrder.id } })).status).toBe("completed");
    const [task] = await tasksOf(pharmacyOrder.id);

    standIn.throttleNext({ kind: "500" });
    expect(await attemptTask({ id: task.id, attempts: 0 }, TASK_HANDLERS)).toMatchObject({ state: "PENDING", attempted: true });
    const problems = await listShopifyTaskProblems(t.organisation.id);
    expect(problems).toEqual([expect.objectContaining({ taskId: task.id, shopId: t.shop.id, kind: "tracking", subject: pharmacyOrder.name, state: "PENDING", attempts: 1 })]);
    expect(problems[0].lastError).toContain("HTTP 500");
    // Another organisation sees none of it.
    expect(await listShopifyTaskProblems((await createTenant()).organisation.id)).toEqual([]);

    expect(await attemptTask({ id: task.id, attempts: 1 }, TASK_HANDLERS)).toMatchObject({ state: "DONE" });
    expect(standIn.orders.get("6002")!.fulfillments[0].trackingInfo).toEqual([{ url: "https://dpd.de/t/1", company: "DPD" }]);
    expect(await listShopifyTaskProblems(t.organisation.id)).toEqual([]);
  });

  it("is not written for an order that did not come from Shopify, nor without tracking links", async () => {
    const order = await createTestOrder(t, routedOrderBody(t, `mgmt-${crypto.randomUUID()}`, t.pharmacy.id, [item(`gid://shopify/ProductVariant/${VARIANT}`)]));
    const pharmacyOrder = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: order.orderId } });
    await completePharmacyOrder(pharmacyOrder.pharmacyId, pharmacyOrder.id, [{ trackingLink: "https://dhl.de/x", carrier: "DHL" }], { type: "SYSTEM" });
    expect(await tasksOf(pharmacyOrder.id)).toEqual([]);

    const untracked = await shopifyPharmacyOrder(6003);
    await completePharmacyOrder(untracked.pharmacyId, untracked.id, [], { type: "SYSTEM" });
    expect(await tasksOf(untracked.id)).toEqual([]);
  });
});

describe("live stock of a shop connected to Shopify", () => {
  const gid = `gid://shopify/ProductVariant/${VARIANT}`;
  const ask = (quantity: number) => checkLiveStock(t.organisation.id, t.shop.identifier, [{ skuId: t.sku.id, quantity }]);

  it("is the smaller of Shopify's available inventory of the mapped variant (summed over locations) and the pharmacies' stock", async () => {
    // Pharmacy stock of the OTC SKU: 10 at A and 3 at B, less what earlier tests' orders took.
    const own = { available: (await availableQuantities(t.db, t.organisation.id, [t.sku.id])).get(t.sku.id)! };
    expect(own.available).toBeGreaterThan(3);
    standIn.inventory.set(gid, { tracked: true, available: [2, 1] });
    expect(await ask(3)).toEqual([{ skuId: t.sku.id, quantity: 3, available: 3, canBeServed: true }]);
    expect((await ask(4))[0]).toMatchObject({ available: 3, canBeServed: false });
    const request = standIn.requests.find((r) => r.operation === "VariantInventory")!;
    expect(request.variables).toEqual({ ids: [gid] });
    expect(request.query).toContain('quantities(names: ["available"])');
    expect(request.headers["x-shopify-access-token"]).toBe(TOKEN);

    standIn.inventory.set(gid, { tracked: true, available: [500] });
    expect((await ask(1))[0].available).toBe(own.available);
  });

  it("is not bounded by a variant whose inventory Shopify does not track; a variant Shopify does not know has none", async () => {
    const own = { available: (await availableQuantities(t.db, t.organisation.id, [t.sku.id])).get(t.sku.id)! };
    standIn.inventory.set(gid, { tracked: false, available: [] });
    expect((await ask(1))[0].available).toBe(own.available);
    standIn.inventory.delete(gid);
    expect((await ask(1))[0]).toMatchObject({ available: 0, canBeServed: false });
  });

  it("answers from the service's own stock when Shopify cannot be asked", async () => {
    const own = { available: (await availableQuantities(t.db, t.organisation.id, [t.sku.id])).get(t.sku.id)! };
    standIn.inventory.set(gid, { tracked: true, available: [0] });
    standIn.throttleNext({ kind: "500" });
    expect((await ask(1))[0].available).toBe(own.available);
  });
});
