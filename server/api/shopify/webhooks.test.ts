/**
 * The Shopify webhook route as strict as the REST intake (issue 36): a shop segment that is not text
 * is the 404 of every other route (proxy.ts, before Next.js decodes it); a signed order goes through
 * the Management intake's rules, and one they refuse is answered 200 (Shopify does not retry),
 * writes no order and is recorded with its reason for the admin under the shop.
 */
import { NextRequest } from "next/server";
import { unstable_doesMiddlewareMatch } from "next/experimental/testing/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as webhookRoute from "@/app/api/shopify/webhooks/[shop]/route";
import { config as proxyConfig, proxy } from "@/proxy";
import { saveShopifyConnection } from "@/server/domain/shopify/connection";
import { adminCallers, as, type AdminCallers } from "@/tests/admin-callers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { offerSku } from "@/tests/orders";
import { paidOrderPayload, shopifyHmac, startShopifyStandIn, type ShopifyStandIn } from "@/tests/shopify-stand-in";
import { useEnv } from "@/tests/wait";
import { createPortalUser } from "@/tests/webhook-logs";

useEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });

const TOKEN = "shpat_doors_token_1234";
const SECRET = "doors-client-secret-abcd";
const VARIANT = 45_000_001;

let standIn: ShopifyStandIn;
let t: Tenant;
let c: AdminCallers;

beforeAll(async () => {
  standIn = await startShopifyStandIn({ accessToken: TOKEN });
  t = await createTenant();
  c = await adminCallers(t);
  const adminId = (await createPortalUser(t.db, { role: "ADMIN", organisationId: t.organisation.id })).id;
  await offerSku(t, { shopVariationId: `gid://shopify/ProductVariant/${VARIANT}`, price: 1299 });
  await saveShopifyConnection(t.organisation.id, adminId, t.shop.id, { storeUrl: standIn.url, accessToken: TOKEN, clientSecret: SECRET });
});
afterAll(async () => {
  await standIn.close();
});

/** Delivers a signed webhook (raw text, so payloads JSON.stringify cannot make are possible) to the route module. */
async function deliver(raw: string, webhookId: string = crypto.randomUUID()) {
  const request = new Request(`http://localhost:3000/api/shopify/webhooks/${t.shop.id}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-shopify-topic": "orders/paid", "x-shopify-webhook-id": webhookId, "x-shopify-hmac-sha256": shopifyHmac(raw, SECRET) },
    body: raw,
  });
  const response = await webhookRoute.POST(request, { params: Promise.resolve({ shop: t.shop.id }) });
  return { status: response.status, text: await response.text() };
}

describe("a shop segment that is not text", () => {
  const SEGMENTS = ["%FF", "%C0%AF", "%ED%A0%80", "%E2%82", "%00", "a%00b"];

  it("reaches proxy.ts, which answers the HTML 404 of an unknown path before anything else runs", async () => {
    for (const segment of SEGMENTS) {
      const url = `http://localhost:3000/api/shopify/webhooks/${segment}`;
      expect(unstable_doesMiddlewareMatch({ config: proxyConfig, url }), segment).toBe(true);
      const answer = await proxy(new NextRequest(url, { method: "POST", body: "{}" }));
      expect(answer.status, segment).toBe(404);
      expect(answer.headers.get("content-type"), segment).toMatch(/^text\/html/);
      expect(answer.headers.get("x-content-type-options"), segment).toBe("nosniff");
    }
    // A shop uid goes on to the route file.
    const ok = await proxy(new NextRequest(`http://localhost:3000/api/shopify/webhooks/${t.shop.id}`, { method: "POST", body: "{}" }));
    expect(ok.headers.get("x-middleware-next")).toBe("1");
  });
});

/** A paid order of the mapped variant with `change` applied to its payload. */
function order(id: number, change: (o: ReturnType<typeof paidOrderPayload>) => void = () => undefined) {
  const payload = paidOrderPayload({ id, variantId: VARIANT });
  change(payload);
  return payload;
}

/** Signed payloads the Management intake refuses (issue 36 item 2): nine gave 500, four were written. */
const REFUSED: { name: string; raw: string; reason: RegExp }[] = [
  { name: "NUL in the name", raw: JSON.stringify(order(8001, (o) => (o.name = "#1\u0000"))), reason: /name: Text may not contain NUL/ },
  { name: "NUL in the address", raw: JSON.stringify(order(8002, (o) => (o.shipping_address.address1 = "Haupt\u0000straße 5"))), reason: /shipping_address\.address1: Text may not contain NUL/ },
  { name: "NUL in the customer id", raw: JSON.stringify(order(8003, (o) => ((o.customer as { id: unknown }).id = "7\u0000"))), reason: /customer\.id: Text may not contain NUL/ },
  {
    name: "NUL in a draft-order id",
    raw: JSON.stringify(order(8004, (o) => ((o.note_attributes as unknown[]).push({ name: "rx_draft_order_id", value: "d\u0000" })))),
    reason: /note_attributes\.0\.value: Text may not contain NUL/,
  },
  { name: "an unpaired surrogate", raw: JSON.stringify(order(8005)).replace('"Erika"', '"Erika\\ud800"'), reason: /unpaired UTF-16 surrogates/ },
  { name: 'price "abc"', raw: JSON.stringify(order(8006, (o) => (o.line_items[0].price = "abc"))), reason: /fulfillments\.0\.items\.0\.total_paid\.amount/ },
  { name: "a 1e308 price", raw: JSON.stringify(order(8007)).replace('"price":"12.99"', '"price":1e308'), reason: /fulfillments\.0\.items\.0\.total_paid\.amount/ },
  { name: "1e300 shipping", raw: JSON.stringify(order(8008)).replace('"amount":"4.90","currency_code":"EUR"},"presentment', '"amount":1e300,"currency_code":"EUR"},"presentment'), reason: /shipping_cost\.amount/ },
  {
    name: "duplicate line-item ids",
    raw: JSON.stringify(order(8009, (o) => o.line_items.push({ ...o.line_items[0] }))),
    reason: /fulfillments\.0\.items\.1\.external_id: Item external_id values must be unique/,
  },
  { name: 'external id ""', raw: JSON.stringify(order(8010, (o) => ((o as { id: unknown }).id = ""))), reason: /^external_id: / },
  { name: "a 5,000-digit external id", raw: JSON.stringify(order(8011)).replace('"id":8011,', `"id":${"9".repeat(5000)},`), reason: /^id: / },
  { name: "a 5,000-digit external id as text", raw: JSON.stringify(order(8012, (o) => ((o as { id: unknown }).id = "9".repeat(5000)))), reason: /^external_id: / },
  { name: "a 300-character currency", raw: JSON.stringify(order(8013, (o) => (o.currency = "E".repeat(300)))), reason: /total_paid\.currency/ },
  { name: "a negative total_paid", raw: JSON.stringify(order(8014, (o) => (o.line_items[0].price = "-12.99"))), reason: /total_paid\.amount/ },
];

describe("a signed Shopify order goes through the Management intake's rules", () => {
  it.each(REFUSED)("$name: answered 200 rejected, no order, recorded with its reason", async ({ raw, reason }) => {
    const ordersBefore = await t.db.order.count({ where: { organisationId: t.organisation.id } });
    const webhookId = crypto.randomUUID();
    const answer = await deliver(raw, webhookId);
    expect(answer).toEqual({ status: 200, text: JSON.stringify({ result: "rejected" }) });
    expect(await t.db.order.count({ where: { organisationId: t.organisation.id } })).toBe(ordersBefore);
    const row = await t.db.shopifyWebhookRefusal.findUniqueOrThrow({ where: { shopId_webhookId: { shopId: t.shop.id, webhookId } } });
    expect(row.reason).toMatch(reason);
  });

  it("records a redelivery of the same webhook, or concurrent ones, once", async () => {
    const raw = JSON.stringify(order(8100, (o) => (o.currency = "XYZ1")));
    const webhookId = crypto.randomUUID();
    const answers = await Promise.all(Array.from({ length: 3 }, () => deliver(raw, webhookId)));
    expect(answers.every((a) => a.status === 200 && a.text.includes("rejected"))).toBe(true);
    expect(await t.db.shopifyWebhookRefusal.count({ where: { shopId: t.shop.id, webhookId } })).toBe(1);
  });

  it("still takes a good order, and an order intake refuses in the domain (an unmapped variant) is recorded too", async () => {
    expect(await deliver(JSON.stringify(order(8200)))).toEqual({ status: 200, text: JSON.stringify({ result: "created" }) });
    expect(await t.db.order.count({ where: { organisationId: t.organisation.id, externalId: "8200" } })).toBe(1);
    const unmapped = paidOrderPayload({ id: 8201, variantId: 1 });
    expect((await deliver(JSON.stringify(unmapped))).text).toContain("rejected");
    const row = await t.db.shopifyWebhookRefusal.findFirstOrThrow({ where: { shopId: t.shop.id, shopifyOrderId: "8201" } });
    expect(row.reason.length).toBeGreaterThan(0);
  });

  it("shows the refusals to the shop's admin under the shop, and to no other organisation", async () => {
    const listed = await as(c.admin).admin.shops.shopifyRefusals({ shopUid: t.shop.id });
    expect(listed.length).toBeGreaterThanOrEqual(REFUSED.length);
    expect(listed.find((r) => r.shopifyOrderId === "8014")).toMatchObject({ reason: expect.stringMatching(/total_paid\.amount/), receivedAt: expect.any(Number) });
    const other = await createTenant();
    const otherAdmin = await adminCallers(other);
    expect(await as(otherAdmin.admin).admin.shops.shopifyRefusals({ shopUid: t.shop.id })).toEqual([]);
  });
});
