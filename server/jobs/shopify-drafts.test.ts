/**
 * Reservations and checkouts of a shop connected to Shopify as Shopify draft orders
 * (docs/decisions/intake.md#shopify), against the stand-in store (tests/shopify-stand-in.ts):
 * POST …/reservation makes a draft with reserveInventoryUntil, the prescription checkout updates
 * (or makes) it, the reservation expiry's background task deletes it, and the order Shopify makes of
 * a checkout's draft completes that checkout once (orders/paid webhook) instead of a second intake.
 * A shop without a connection keeps the built-in connector.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as webhookRoute from "@/app/api/shopify/webhooks/[shop]/route";
import { createShopSku } from "@/server/domain/catalogue/shop-skus";
import { completePharmacyOrder } from "@/server/domain/pharmacy-orders/complete";
import { saveShopifyConnection } from "@/server/domain/shopify/connection";
import { DELETE_DRAFT_TASK } from "@/server/domain/shopify/draft-orders";
import { PUSH_TRACKING_TASK } from "@/server/domain/shopify/push-tracking";
import { listShopifyTaskProblems } from "@/server/domain/shopify/task-problems";
import { reserveStock } from "@/server/domain/storefront/reserve";
import { RESERVATION_HOLD_MINUTES } from "@/server/domain/storefront/statuses";
import { availableQuantities } from "@/server/domain/storefront/stock";
import { attemptTask } from "@/server/domain/tasks/attempt";
import { runReservationExpiry } from "@/server/jobs/reservation-expiry";
import { TASK_HANDLERS } from "@/server/jobs/task-handlers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { post } from "@/tests/http";
import { offerSku } from "@/tests/orders";
import { paidOrderOfDraft, paidOrderPayload, shopifyHmac, startShopifyStandIn, type ShopifyStandIn } from "@/tests/shopify-stand-in";
import { useEnv } from "@/tests/wait";
import { createPortalUser } from "@/tests/webhook-logs";

// The stand-in listens on loopback: the existing allowance of the outgoing-request guard.
useEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });

const TOKEN = "shpat_drafts_standin_5555";
const SECRET = "drafts-app-client-secret";
const VARIANT = 45_000_001;
const VARIANT_GID = `gid://shopify/ProductVariant/${VARIANT}`;

let standIn: ShopifyStandIn;
let t: Tenant;
let other: Tenant;

beforeAll(async () => {
  standIn = await startShopifyStandIn({ accessToken: TOKEN });
  t = await createTenant();
  other = await createTenant();
  const admin = await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id });
  // The OTC SKU is mapped to a Shopify variant (by its number); the e-voucher to no Shopify variant.
  await offerSku(t, { shopVariationId: String(VARIANT), price: 1299 });
  await offerSku(t, { shopVariationId: "voucher-code", price: 199, skuId: t.digitalSku.id });
  // The second shop sells the OTC SKU too, without a Shopify connection.
  await createShopSku(t.organisation.id, { shopId: t.otherShop.id, shopProductId: t.otherShopProduct.id, skuId: t.sku.id, shopVariationId: "built-in-otc", price: 1299 }, { type: "SYSTEM" });
  await offerSku(other, { shopVariationId: String(VARIANT), price: 1299 });
  await saveShopifyConnection(t.organisation.id, admin.id, t.shop.id, { storeUrl: standIn.url, accessToken: TOKEN, clientSecret: SECRET });
});
afterAll(async () => {
  await standIn.close();
});
beforeEach(async () => {
  standIn.requests.length = 0;
  // Every test starts from the pharmacies' stock.
  await t.db.draftOrder.updateMany({ where: { organisationId: t.organisation.id, status: "reserved" }, data: { status: "expired" } });
});

const P = "/v2/public-api";
const reserve = (items: unknown, shop = t.shop.identifier, key = t.keys.public) => post(`${P}/products/${shop}/reservation`, { key, body: { items } });
const available = async () => (await availableQuantities(t.db, t.organisation.id, [t.sku.id])).get(t.sku.id)!;
const draftsOf = (tenant: Tenant) => tenant.db.draftOrder.count({ where: { organisationId: tenant.organisation.id } });
const lastRequest = (operation: string) => standIn.requests.filter((r) => r.operation === operation).at(-1)!;
const gidOf = (legacyId: string) => `gid://shopify/DraftOrder/${legacyId}`;

const shipping = { first_name: "Erika", last_name: "Mustermann", address1: "Hauptstraße 5", city: "Berlin", province: null, country_code: "DE", zip: "10115" };
const billing = { ...shipping, address1: "Am Ring 12a", city: "Potsdam", zip: "14467" };
function checkoutBody(overrides: Record<string, unknown> = {}) {
  return {
    lines: [{ sku_uid: t.sku.id, quantity: 2 }],
    patient_data: { first_name: "Erika", last_name: "Mustermann", date_of_birth: 315532800, gender: "female" },
    buyerIdentity: { email: "Erika@Example.com" },
    shipping_address: shipping,
    billing_address: billing,
    delivery: { delivery_type: "DHL Paket", delivery_price: 495 },
    prepaid: true,
    ...overrides,
  };
}
const checkout = (body: unknown, shop = t.shop.identifier) => post(`${P}/prescriptions/${shop}`, { key: t.keys.public, body });

/** Records the client's waits instead of waiting, so no test depends on the clock. */
function recordingWait() {
  const waits: number[] = [];
  return { waits, wait: async (ms: number) => void waits.push(ms) };
}

describe("a reservation of a Shopify shop", () => {
  it("is a Shopify draft order reserving the variants until the hold ends; the answer names it by Shopify's legacy id", async () => {
    const before = await available();
    const now = new Date();
    const r = await reserve([{ sku_uid: t.sku.id, quantity: 2 }]);
    expect(r.status).toBe(201);
    const draft = [...standIn.drafts.values()].at(-1)!;
    expect(r.json.draft_order_id).toBe(draft.legacyResourceId);

    const create = lastRequest("DraftOrderCreate");
    expect(create.headers["x-shopify-access-token"]).toBe(TOKEN);
    expect(create.query).toContain("draftOrderCreate(input: $input)");
    expect(create.query).toContain("legacyResourceId");
    const row = await t.db.draftOrder.findUniqueOrThrow({ where: { shopifyDraftOrderGid: draft.id } });
    expect(create.variables).toEqual({
      input: {
        lineItems: [{ variantId: VARIANT_GID, quantity: 2, priceOverride: { amount: "12.99", currencyCode: "EUR" } }],
        customAttributes: [{ key: "rx_draft_order_id", value: row.id }],
        reserveInventoryUntil: row.holdExpiresAt!.toISOString(),
      },
    });
    expect(row).toMatchObject({ kind: "RESERVATION", status: "reserved", shopId: t.shop.id });
    expect(row.holdExpiresAt!.getTime() - now.getTime()).toBeGreaterThan((RESERVATION_HOLD_MINUTES - 1) * 60_000);
    expect(r.json.expires_at).toBe(Math.floor(row.holdExpiresAt!.getTime() / 1000));
    // Our row still holds the stock.
    expect(await available()).toBe(before - 2);
  });

  it("refuses a SKU not mapped to a Shopify variant with the family's 400, writing nothing and asking Shopify nothing", async () => {
    const drafts = await draftsOf(t);
    const r = await reserve([{ sku_uid: t.sku.id, quantity: 1 }, { sku_uid: t.digitalSku.id, quantity: 1 }]);
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: { items: { "1": { sku_uid: ["The SKU is not mapped to a Shopify variant: give its shop SKU the variant's id as variation id."] } } } });
    expect(await draftsOf(t)).toBe(drafts);
    expect(standIn.requests).toHaveLength(0);
  });

  it("is refused when Shopify refuses the draft (userErrors: 502) or cannot be reached (503), and no hold stays behind", async () => {
    const before = await available();
    const drafts = await draftsOf(t);
    standIn.throttleNext({ kind: "userErrors", field: ["lineItems", "0", "variantId"], message: "Product with ID 45000001 is no longer available." });
    const refused = await reserve([{ sku_uid: t.sku.id, quantity: 1 }]);
    expect(refused.status).toBe(502);
    expect(refused.json).toEqual({
      code: "shop_platform_refused",
      error: "Shopify could not reserve the items: Shopify refused the draft order: Product with ID 45000001 is no longer available.",
    });

    standIn.throttleNext({ kind: "500" });
    const unavailable = await reserve([{ sku_uid: t.sku.id, quantity: 1 }]);
    expect(unavailable.status).toBe(503);
    expect(unavailable.json).toEqual({ code: "shop_platform_unavailable", error: "Shopify could not reserve the items: Shopify answered HTTP 500." });
    expect(await draftsOf(t)).toBe(drafts);
    expect(await available()).toBe(before);
  });

  it("waits out Shopify's THROTTLED answer and its 429 before making the draft", async () => {
    const { waits, wait } = recordingWait();
    // 50 requested, 10 available, 100 restored per second: 0.4 s; then a 429 asking for 1.5 s.
    standIn.throttleNext({ kind: "throttled", requested: 50, available: 10, restoreRate: 100 }, { kind: "429", retryAfter: "1.5" });
    const reservation = await reserveStock(t.organisation.id, t.shop.identifier, [{ skuId: t.sku.id, quantity: 1 }], new Date(), wait);
    expect(waits).toEqual([400, 1500]);
    expect(standIn.requests.map((r) => r.operation)).toEqual(["DraftOrderCreate", "DraftOrderCreate", "DraftOrderCreate"]);
    expect(standIn.drafts.has(gidOf(reservation.draftOrderId))).toBe(true);
  });

  it("of a shop without a Shopify connection stays the built-in connector's: our own id, nothing sent to Shopify", async () => {
    const r = await reserve([{ sku_uid: t.sku.id, quantity: 1 }], t.otherShop.identifier);
    expect(r.status).toBe(201);
    const row = await t.db.draftOrder.findFirstOrThrow({ where: { shopId: t.otherShop.id }, orderBy: { createdAt: "desc" } });
    expect(r.json.draft_order_id).toBe(row.legacyId.toString());
    expect(row.shopifyDraftOrderGid).toBeNull();
    expect(standIn.requests).toHaveLength(0);
  });
});

describe("the prescription checkout of a Shopify shop", () => {
  it("updates the reservation's draft (draftOrderUpdate) and answers its invoice URL under the same Shopify id", async () => {
    const reservation = await reserve([{ sku_uid: t.sku.id, quantity: 1 }]);
    const gid = gidOf(reservation.json.draft_order_id);
    standIn.requests.length = 0;
    const r = await checkout(checkoutBody({ reserved_draft_order_id: reservation.json.draft_order_id, checkout_type: "checkout_link" }));
    expect(r.status).toBe(201);
    const draft = standIn.drafts.get(gid)!;
    expect(r.json).toMatchObject({ draft_order_id: reservation.json.draft_order_id, checkout_type: "checkout_link", status: "open", checkout_url: draft.invoiceUrl });

    const update = lastRequest("DraftOrderUpdate");
    expect(update.query).toContain("draftOrderUpdate(id: $id, input: $input)");
    const row = await t.db.draftOrder.findUniqueOrThrow({ where: { shopifyDraftOrderGid: gid } });
    const address = (a: typeof shipping) => ({ firstName: a.first_name, lastName: a.last_name, address1: a.address1, city: a.city, zip: a.zip, countryCode: "DE" });
    expect(update.variables).toEqual({
      id: gid,
      input: {
        lineItems: [{ variantId: VARIANT_GID, quantity: 2, priceOverride: { amount: "12.99", currencyCode: "EUR" } }],
        customAttributes: [
          { key: "rx_draft_order_id", value: row.id },
          { key: "prepaid", value: "true" },
        ],
        email: "Erika@Example.com",
        shippingAddress: address(shipping),
        billingAddress: address(billing),
        shippingLine: { title: "DHL Paket", priceWithCurrency: { amount: "4.95", currencyCode: "EUR" } },
      },
    });
    expect(standIn.requests.some((q) => q.operation === "DraftOrderCreate")).toBe(false);
    expect(row).toMatchObject({ kind: "PRESCRIPTION_CHECKOUT", status: "open", holdExpiresAt: null, checkoutTokenHash: null });
  });

  it("makes a draft (draftOrderCreate) without a reservation; draft_order_without_checkout_request answers no URL", async () => {
    const r = await checkout(checkoutBody({ checkout_type: "draft_order_without_checkout_request", prepaid: false }));
    expect(r.status).toBe(201);
    const create = lastRequest("DraftOrderCreate");
    const draft = [...standIn.drafts.values()].at(-1)!;
    expect(r.json).toMatchObject({ draft_order_id: draft.legacyResourceId, checkout_url: null, status: "open" });
    expect(create.variables.input.customAttributes).toEqual([
      { key: "rx_draft_order_id", value: (await t.db.draftOrder.findUniqueOrThrow({ where: { shopifyDraftOrderGid: draft.id } })).id },
      { key: "prepaid", value: "false" },
    ]);
    expect(create.variables.input).not.toHaveProperty("reserveInventoryUntil");

    const link = await checkout(checkoutBody({ checkout_type: "draft_order" }));
    expect(link.json.checkout_url).toBe([...standIn.drafts.values()].at(-1)!.invoiceUrl);
  });

  it("finds the reservation by Shopify's id within the shop only: our own numeric id of it, another shop's or organisation's is unknown (400)", async () => {
    const reservation = await reserve([{ sku_uid: t.sku.id, quantity: 1 }]);
    const row = await t.db.draftOrder.findUniqueOrThrow({ where: { shopifyDraftOrderGid: gidOf(reservation.json.draft_order_id) } });
    const unknown = { error: { reserved_draft_order_id: ["No reservation with this id in the shop."] } };
    expect((await checkout(checkoutBody({ reserved_draft_order_id: row.legacyId.toString() }))).json).toEqual(unknown);
    const otherShops = await reserve([{ sku_uid: t.sku.id, quantity: 1 }], t.otherShop.identifier);
    expect((await checkout(checkoutBody({ reserved_draft_order_id: otherShops.json.draft_order_id }))).json).toEqual(unknown);
    // Another organisation's checkout naming this shop's reservation: its own shop does not have it.
    const foreign = await post(`${P}/prescriptions/${other.shop.identifier}`, { key: other.keys.public, body: checkoutBody({ lines: [{ sku_uid: other.sku.id, quantity: 1 }], reserved_draft_order_id: reservation.json.draft_order_id }) });
    expect(foreign.status).toBe(400);
    expect(foreign.json).toEqual(unknown);
    expect(await t.db.draftOrder.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: "reserved", kind: "RESERVATION" });
  });

  it("refuses a line whose SKU has no Shopify variant, with the family's 400", async () => {
    const r = await checkout(checkoutBody({ lines: [{ sku_uid: t.digitalSku.id, quantity: 1 }] }));
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: { lines: { "0": { sku_uid: ["The SKU is not mapped to a Shopify variant: give its shop SKU the variant's id as variation id."] } } } });
  });

  it("is refused when Shopify fails: the checkout is left failed and the consumed reservation's draft is deleted by a task", async () => {
    const reservation = await reserve([{ sku_uid: t.sku.id, quantity: 1 }]);
    const gid = gidOf(reservation.json.draft_order_id);
    standIn.throttleNext({ kind: "userErrors", field: ["email"], message: "Email is invalid" });
    const r = await checkout(checkoutBody({ reserved_draft_order_id: reservation.json.draft_order_id, external_order_id: "shop-order-77" }));
    expect(r.status).toBe(502);
    expect(r.json).toEqual({ code: "shop_platform_refused", error: "Shopify could not take the checkout: Shopify refused the draft order: Email is invalid" });
    const row = await t.db.draftOrder.findUniqueOrThrow({ where: { shopifyDraftOrderGid: gid } });
    expect(row.status).toBe("failed");
    const [task] = await t.db.backgroundTask.findMany({ where: { name: DELETE_DRAFT_TASK, payload: { path: ["draftOrderId"], equals: row.id } } });
    expect(task.payload).toEqual({ draftOrderId: row.id, shopId: t.shop.id, shopifyDraftOrderGid: gid });
    expect(await attemptTask({ id: task.id, attempts: 0 }, TASK_HANDLERS)).toMatchObject({ state: "DONE" });
    expect(standIn.drafts.has(gid)).toBe(false);

    // A failed checkout does not hold its external_order_id: the caller may try again.
    standIn.throttleNext({ kind: "500" });
    const again = await checkout(checkoutBody({ external_order_id: "shop-order-77" }));
    expect(again.status).toBe(503);
    expect(again.json.code).toBe("shop_platform_unavailable");
    expect((await checkout(checkoutBody({ external_order_id: "shop-order-77" }))).status).toBe(201);
  });
});

describe("an expired reservation of a Shopify shop", () => {
  const deletionTasks = (draftOrderId: string) => t.db.backgroundTask.findMany({ where: { name: DELETE_DRAFT_TASK, payload: { path: ["draftOrderId"], equals: draftOrderId } } });

  it("has its Shopify draft deleted by a background task that the expiry enqueues; already deleted counts as done", async () => {
    const reservation = await reserve([{ sku_uid: t.sku.id, quantity: 1 }]);
    const gid = gidOf(reservation.json.draft_order_id);
    const row = await t.db.draftOrder.findUniqueOrThrow({ where: { shopifyDraftOrderGid: gid } });
    const builtIn = await reserve([{ sku_uid: t.sku.id, quantity: 1 }], t.otherShop.identifier);
    expect(await runReservationExpiry(new Date(Date.now() + (RESERVATION_HOLD_MINUTES + 1) * 60_000))).toMatchObject({ expired: expect.any(Number) });
    expect((await t.db.draftOrder.findUniqueOrThrow({ where: { id: row.id } })).status).toBe("expired");
    const [task] = await deletionTasks(row.id);
    expect(task.payload).toEqual({ draftOrderId: row.id, shopId: t.shop.id, shopifyDraftOrderGid: gid });
    // The built-in reservation expired too, with no task.
    const builtInRow = await t.db.draftOrder.findFirstOrThrow({ where: { shopId: t.otherShop.id, legacyId: BigInt(builtIn.json.draft_order_id) } });
    expect(builtInRow.status).toBe("expired");
    expect(await deletionTasks(builtInRow.id)).toEqual([]);

    standIn.requests.length = 0;
    expect(await attemptTask({ id: task.id, attempts: 0 }, TASK_HANDLERS)).toMatchObject({ state: "DONE" });
    const deletion = lastRequest("DraftOrderDelete");
    expect(deletion.query).toContain("draftOrderDelete(input: $input)");
    expect(deletion.variables).toEqual({ input: { id: gid } });
    expect(standIn.drafts.has(gid)).toBe(false);

    // Run again (at least once): Shopify has no such draft any more, which is done.
    await expect(TASK_HANDLERS[DELETE_DRAFT_TASK](task.payload as Record<string, string>, { number: 2, last: false })).resolves.toBeUndefined();
    expect(lastRequest("DraftOrderState").variables).toEqual({ id: gid });
  });

  it("leaves a draft that became an order in Shopify (the merchant completed it): done, nothing deleted", async () => {
    const reservation = await reserve([{ sku_uid: t.sku.id, quantity: 1 }]);
    const gid = gidOf(reservation.json.draft_order_id);
    const row = await t.db.draftOrder.findUniqueOrThrow({ where: { shopifyDraftOrderGid: gid } });
    standIn.completeDraft(gid, 7_600_001);
    await runReservationExpiry(new Date(Date.now() + (RESERVATION_HOLD_MINUTES + 1) * 60_000));
    const [task] = await deletionTasks(row.id);
    expect(await attemptTask({ id: task.id, attempts: 0 }, TASK_HANDLERS)).toMatchObject({ state: "DONE" });
    expect(standIn.drafts.get(gid)!.status).toBe("COMPLETED");
  });

  it("a deletion that fails is retried and listed with the other Shopify tasks that keep failing", async () => {
    const reservation = await reserve([{ sku_uid: t.sku.id, quantity: 1 }]);
    const row = await t.db.draftOrder.findUniqueOrThrow({ where: { shopifyDraftOrderGid: gidOf(reservation.json.draft_order_id) } });
    await runReservationExpiry(new Date(Date.now() + (RESERVATION_HOLD_MINUTES + 1) * 60_000));
    const [task] = await deletionTasks(row.id);
    standIn.throttleNext({ kind: "500" });
    expect(await attemptTask({ id: task.id, attempts: 0 }, TASK_HANDLERS)).toMatchObject({ state: "PENDING", attempted: true });
    const problems = await listShopifyTaskProblems(t.organisation.id);
    expect(problems).toContainEqual(
      expect.objectContaining({ taskId: task.id, shopId: t.shop.id, kind: "draft_deletion", subject: reservation.json.draft_order_id, state: "PENDING", attempts: 1, lastError: "Shopify answered HTTP 500." }),
    );
    expect(await listShopifyTaskProblems(other.organisation.id)).toEqual([]);
    expect(await attemptTask({ id: task.id, attempts: 1 }, TASK_HANDLERS)).toMatchObject({ state: "DONE" });
    expect((await listShopifyTaskProblems(t.organisation.id)).some((p) => p.taskId === task.id)).toBe(false);
  });
});

/** Delivers a webhook to the route module in-process, signed with the shop's client secret. */
async function deliver(payload: unknown) {
  const raw = JSON.stringify(payload);
  const request = new Request(`http://localhost:3000/api/shopify/webhooks/${t.shop.id}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-shopify-topic": "orders/paid", "x-shopify-webhook-id": crypto.randomUUID(), "x-shopify-hmac-sha256": shopifyHmac(raw, SECRET) },
    body: raw,
  });
  const response = await webhookRoute.POST(request, { params: Promise.resolve({ shop: t.shop.id }) });
  return { status: response.status, text: await response.text() };
}

describe("the order Shopify makes of a checkout's draft", () => {
  let orderCounter = 7_700_000;

  async function paidCheckout(overrides: Record<string, unknown> = {}) {
    const r = await checkout(checkoutBody(overrides));
    expect(r.status).toBe(201);
    const gid = gidOf(r.json.draft_order_id);
    const row = await t.db.draftOrder.findUniqueOrThrow({ where: { shopifyDraftOrderGid: gid } });
    const draft = standIn.completeDraft(gid, ++orderCounter);
    return { r, row, payload: paidOrderOfDraft(draft), shopifyOrderId: String(orderCounter) };
  }

  it("completes that checkout through completeCheckout, once under concurrent and repeated deliveries, not a second intake", async () => {
    const { r, row, payload, shopifyOrderId } = await paidCheckout();
    const answers = await Promise.all(Array.from({ length: 4 }, () => deliver(payload)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.text === JSON.stringify({ result: "created" }))).toHaveLength(1);
    expect(answers.filter((a) => a.text === JSON.stringify({ result: "duplicate" }))).toHaveLength(3);
    expect(await deliver(payload)).toEqual({ status: 200, text: JSON.stringify({ result: "duplicate" }) });

    const completed = await t.db.draftOrder.findUniqueOrThrow({ where: { id: row.id }, include: { order: { include: { shopifyOrder: true, items: true } } } });
    expect(completed.status).toBe("completed");
    const order = completed.order!;
    // The checkout's order (checkout-{draft_order_id}), linked to the Shopify order; none under Shopify's order id.
    expect(order.externalId).toBe(`checkout-${r.json.draft_order_id}`);
    expect(order.shopifyOrder).toMatchObject({ shopId: t.shop.id, shopifyOrderId });
    expect(order.additionalDetails).toMatchObject({ prepaid: "true", checkout: { draft_order_id: r.json.draft_order_id } });
    expect(order.items.map((i) => ({ skuId: i.skuId, quantity: i.quantity }))).toEqual([{ skuId: t.sku.id, quantity: 2 }]);
    expect(await t.db.order.count({ where: { organisationId: t.organisation.id, externalId: shopifyOrderId } })).toBe(0);
    expect(await t.db.order.count({ where: { organisationId: t.organisation.id, externalId: `checkout-${r.json.draft_order_id}` } })).toBe(1);
    // Shopify was asked which order the draft became.
    expect(lastRequest("DraftOrderState").variables).toEqual({ id: completed.shopifyDraftOrderGid });

    // The tracking push works for it: the link goes back to the Shopify order.
    const pharmacyOrder = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: order.id } });
    await completePharmacyOrder(pharmacyOrder.pharmacyId, pharmacyOrder.id, [{ trackingLink: "https://dhl.de/t/draft", carrier: "DHL" }], { type: "SYSTEM" });
    const [push] = await t.db.backgroundTask.findMany({ where: { name: PUSH_TRACKING_TASK, payload: { path: ["pharmacyOrderId"], equals: pharmacyOrder.id } } });
    expect(await attemptTask({ id: push.id, attempts: 0 }, TASK_HANDLERS)).toMatchObject({ state: "DONE" });
    expect(standIn.orders.get(shopifyOrderId)!.fulfillments[0].trackingInfo).toEqual([{ url: "https://dhl.de/t/draft", company: "DHL Express" }]);
  });

  it("completes it even after the checkout's expires_at: the patient paid in Shopify", async () => {
    const { row, payload } = await paidCheckout({ external_order_id: `late-${crypto.randomUUID()}` });
    await t.db.draftOrder.update({ where: { id: row.id }, data: { request: { ...(row.request as object), expiresAt: 1 } } });
    expect((await deliver(payload)).text).toBe(JSON.stringify({ result: "created" }));
    expect((await t.db.draftOrder.findUniqueOrThrow({ where: { id: row.id } })).status).toBe("completed");
  });

  it("takes an order whose marker Shopify does not confirm as an ordinary order, and leaves the checkout open", async () => {
    const r = await checkout(checkoutBody());
    const row = await t.db.draftOrder.findUniqueOrThrow({ where: { shopifyDraftOrderGid: gidOf(r.json.draft_order_id) } });
    // A buyer's own cart with our checkout's marker as a cart attribute.
    const forged = { ...paidOrderPayload({ id: ++orderCounter, variantId: VARIANT }), note_attributes: [{ name: "rx_draft_order_id", value: row.id }] };
    expect(await deliver(forged)).toEqual({ status: 200, text: JSON.stringify({ result: "created" }) });
    expect(await t.db.order.count({ where: { organisationId: t.organisation.id, externalId: String(orderCounter) } })).toBe(1);
    expect((await t.db.draftOrder.findUniqueOrThrow({ where: { id: row.id } })).status).toBe("open");
  });

  it("answers 503 when Shopify cannot confirm it, so that Shopify sends it again; then takes it", async () => {
    const { row, payload } = await paidCheckout();
    standIn.throttleNext({ kind: "500" });
    expect((await deliver(payload)).status).toBe(503);
    expect((await t.db.draftOrder.findUniqueOrThrow({ where: { id: row.id } })).status).toBe("open");
    expect((await deliver(payload)).text).toBe(JSON.stringify({ result: "created" }));
  });
});
