/**
 * A stand-in for a Shopify store on 127.0.0.1, for the Shopify connector's tests (Vitest and
 * Playwright): no test reaches the internet. It answers as Shopify's documentation shows:
 *
 * - Admin GraphQL API (shopify.dev/docs/api/admin-graphql, "POST /admin/api/{version}/graphql.json"
 *   with X-Shopify-Access-Token): `shop { name myshopifyDomain }`; `nodes(ids:)` of ProductVariants
 *   with `inventoryItem { tracked inventoryLevels { nodes { quantities(names: ["available"]) } } }`
 *   (null for an id the store does not know); `order(id:)` with
 *   `fulfillments { trackingInfo { url } }` and `fulfillmentOrders { nodes { id status } }`;
 *   `fulfillmentCreate(fulfillment: FulfillmentInput!)` with `lineItemsByFulfillmentOrder`,
 *   `trackingInfo { url company }` and `userErrors`. A wrong token gets Shopify's 401 body
 *   ({"errors": "[API] Invalid API key or access token (unrecognized login or wrong password)"}).
 * - Rate limits (shopify.dev/docs/api/usage/limits): scripted answers put in front with `throttleNext`:
 *   HTTP 429 with Retry-After (seconds), or HTTP 200 with
 *   {"errors": [{"message": "Throttled", "extensions": {"code": "THROTTLED", "cost": {…, "throttleStatus": {…}}}}]}.
 * - Webhooks (shopify.dev/docs/apps/build/webhooks/subscribe/https): `sendOrderWebhook` posts an
 *   orders/paid payload (the REST Admin API's order JSON) with X-Shopify-Topic, X-Shopify-Shop-Domain,
 *   X-Shopify-Webhook-Id, X-Shopify-API-Version and X-Shopify-Hmac-Sha256 (base64 HMAC-SHA256 of the
 *   raw body with the app's client secret).
 *
 * Every GraphQL request is recorded (path, headers, query text, variables) for the tests to assert.
 */
import { createHmac, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const STAND_IN_API_VERSION = "2026-10";

export type StandInRequest = { path: string; headers: IncomingHttpHeaders; query: string; variables: Record<string, any>; operation: string | null };
export type StandInOrder = {
  fulfillmentOrders: { id: string; status: string }[];
  fulfillments: { id: string; fulfillmentOrderIds: string[]; trackingInfo: { url: string; company: string | null }[]; notifyCustomer: boolean }[];
};
type Scripted = { kind: "429"; retryAfter: string } | { kind: "throttled"; requested: number; available: number; restoreRate: number } | { kind: "500" };

const INVALID_TOKEN = { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" };

function operationName(query: string): string | null {
  return /^\s*(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? null;
}

export async function startShopifyStandIn(options: { accessToken: string; shopName?: string }) {
  const requests: StandInRequest[] = [];
  const orders = new Map<string, StandInOrder>();
  /** Inventory by variant GID: available per location, or untracked. */
  const inventory = new Map<string, { tracked: boolean; available: number[] }>();
  const scripted: Scripted[] = [];
  const waiters: { test: () => boolean; resolve: () => void }[] = [];
  const shopName = options.shopName ?? "Stand-in Apotheke";

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers }).end(JSON.stringify(body));
  };

  function answer(request: StandInRequest): { status: number; body: unknown } {
    const op = request.operation;
    if (op === "ConnectionTest") return { status: 200, body: { data: { shop: { name: shopName, myshopifyDomain: "stand-in.myshopify.com" } } } };
    if (op === "VariantInventory") {
      const ids: string[] = request.variables.ids ?? [];
      const nodes = ids.map((id) => {
        const item = inventory.get(id);
        if (!item) return null;
        return {
          id,
          inventoryItem: {
            tracked: item.tracked,
            inventoryLevels: { nodes: item.available.map((quantity) => ({ quantities: [{ name: "available", quantity }] })) },
          },
        };
      });
      return { status: 200, body: { data: { nodes } } };
    }
    if (op === "OrderFulfillmentState") {
      const id = String(request.variables.id ?? "");
      const order = orders.get(id.replace("gid://shopify/Order/", ""));
      if (!order) return { status: 200, body: { data: { order: null } } };
      return {
        status: 200,
        body: {
          data: {
            order: {
              id,
              fulfillments: order.fulfillments.map((f) => ({ trackingInfo: f.trackingInfo.map((t) => ({ url: t.url })) })),
              fulfillmentOrders: { nodes: order.fulfillmentOrders.map((f) => ({ id: f.id, status: f.status })) },
            },
          },
        },
      };
    }
    if (op === "FulfillmentCreate") {
      const input = request.variables.fulfillment ?? {};
      const ids: string[] = (input.lineItemsByFulfillmentOrder ?? []).map((l: { fulfillmentOrderId: string }) => l.fulfillmentOrderId);
      const owner = [...orders.values()].find((o) => o.fulfillmentOrders.some((f) => ids.includes(f.id)));
      const userErrors: { field: string[]; message: string }[] = [];
      if (!owner || ids.length === 0) userErrors.push({ field: ["fulfillment", "lineItemsByFulfillmentOrder"], message: "Fulfillment order does not exist." });
      else if (owner.fulfillmentOrders.some((f) => ids.includes(f.id) && f.status !== "OPEN" && f.status !== "IN_PROGRESS"))
        userErrors.push({ field: ["fulfillment"], message: "Fulfillment order is not in a fulfillable state." });
      if (userErrors.length > 0) return { status: 200, body: { data: { fulfillmentCreate: { fulfillment: null, userErrors } } } };
      const fulfillment = {
        id: `gid://shopify/Fulfillment/${Math.floor(Math.random() * 1e9)}`,
        fulfillmentOrderIds: ids,
        trackingInfo: input.trackingInfo ? [{ url: input.trackingInfo.url, company: input.trackingInfo.company ?? null }] : [],
        notifyCustomer: Boolean(input.notifyCustomer),
      };
      owner!.fulfillments.push(fulfillment);
      for (const f of owner!.fulfillmentOrders) if (ids.includes(f.id)) f.status = "CLOSED";
      return { status: 200, body: { data: { fulfillmentCreate: { fulfillment: { id: fulfillment.id, status: "SUCCESS" }, userErrors: [] } } } };
    }
    return { status: 200, body: { errors: [{ message: `Stand-in does not know the operation ${op ?? "(unnamed)"}.` }] } };
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== `/admin/api/${STAND_IN_API_VERSION}/graphql.json`) return send(res, 404, { errors: "Not Found" });
      let body: { query?: string; variables?: Record<string, unknown> } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return send(res, 400, { errors: { query: "Required parameter missing or invalid" } });
      }
      const query = body.query ?? "";
      const request: StandInRequest = { path: req.url, headers: req.headers, query, variables: body.variables ?? {}, operation: operationName(query) };
      requests.push(request);
      if (req.headers["x-shopify-access-token"] !== options.accessToken) send(res, 401, INVALID_TOKEN);
      else {
        const next = scripted.shift();
        if (next?.kind === "429") send(res, 429, { errors: "Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service." }, { "retry-after": next.retryAfter });
        else if (next?.kind === "500") send(res, 500, { errors: "Internal Server Error" });
        else if (next?.kind === "throttled")
          send(res, 200, {
            errors: [{ message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" } }],
            extensions: {
              cost: {
                requestedQueryCost: next.requested,
                actualQueryCost: null,
                throttleStatus: { maximumAvailable: 2000, currentlyAvailable: next.available, restoreRate: next.restoreRate },
              },
            },
          });
        else {
          const { status, body: answerBody } = answer(request);
          send(res, status, answerBody);
        }
      }
      for (const w of [...waiters]) if (w.test()) (waiters.splice(waiters.indexOf(w), 1), w.resolve());
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    orders,
    inventory,
    /** Puts scripted answers in front of the next requests (in order). */
    throttleNext(...answers: Scripted[]) {
      scripted.push(...answers);
    },
    /** A Shopify order with one open fulfillment order. */
    addOrder(shopifyOrderId: string): StandInOrder {
      const order: StandInOrder = { fulfillmentOrders: [{ id: `gid://shopify/FulfillmentOrder/${shopifyOrderId}1`, status: "OPEN" }], fulfillments: [] };
      orders.set(shopifyOrderId, order);
      return order;
    },
    /** Resolves once `test` holds after a request (rejects after `timeoutMs`). */
    waitUntil(test: () => boolean, timeoutMs = 20_000): Promise<void> {
      if (test()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("the stand-in did not get the expected request")), timeoutMs);
        waiters.push({ test, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type ShopifyStandIn = Awaited<ReturnType<typeof startShopifyStandIn>>;

/** Shopify's signature of a webhook body: base64 HMAC-SHA256 with the app's client secret. */
export const shopifyHmac = (rawBody: string | Buffer, clientSecret: string) => createHmac("sha256", clientSecret).update(rawBody).digest("base64");

/** An orders/paid payload as Shopify sends it (REST Admin API order JSON, the fields intake reads and a few more). */
export function paidOrderPayload(fields: { id: number; name?: string; variantId: number; sku?: string; quantity?: number; price?: string; email?: string; lastName?: string }) {
  const lastName = fields.lastName ?? "Mustermann";
  return {
    id: fields.id,
    admin_graphql_api_id: `gid://shopify/Order/${fields.id}`,
    name: fields.name ?? `#${1000 + (fields.id % 1000)}`,
    email: fields.email ?? "erika@example.com",
    currency: "EUR",
    financial_status: "paid",
    created_at: "2026-11-26T09:00:00+01:00",
    note_attributes: [],
    tags: "",
    customer: { id: 7_000_000 + (fields.id % 1000), email: fields.email ?? "erika@example.com", first_name: "Erika", last_name: lastName },
    shipping_address: { first_name: "Erika", last_name: lastName, address1: "Hauptstraße 5", address2: null, city: "Berlin", zip: "10115", province: null, country_code: "DE" },
    billing_address: { first_name: "Erika", last_name: lastName, address1: "Hauptstraße 5", address2: null, city: "Berlin", zip: "10115", province: null, country_code: "DE" },
    shipping_lines: [],
    total_shipping_price_set: { shop_money: { amount: "4.90", currency_code: "EUR" }, presentment_money: { amount: "4.90", currency_code: "EUR" } },
    line_items: [
      {
        id: fields.id * 10 + 1,
        admin_graphql_api_id: `gid://shopify/LineItem/${fields.id * 10 + 1}`,
        variant_id: fields.variantId,
        sku: fields.sku ?? null,
        title: "Stand-in product",
        quantity: fields.quantity ?? 1,
        price: fields.price ?? "12.99",
        total_discount: "0.00",
      },
    ],
  };
}

/** Sends a webhook as Shopify does; `secret` signs it (a wrong one makes a forged delivery). */
export async function sendOrderWebhook(url: string, payload: unknown, secret: string, topic = "orders/paid") {
  const raw = JSON.stringify(payload);
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-shopify-topic": topic,
      "x-shopify-shop-domain": "stand-in.myshopify.com",
      "x-shopify-api-version": STAND_IN_API_VERSION,
      "x-shopify-webhook-id": randomUUID(),
      "x-shopify-hmac-sha256": shopifyHmac(raw, secret),
    },
    body: raw,
  });
}
