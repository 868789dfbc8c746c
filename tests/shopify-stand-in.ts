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
 * - Draft orders (shopify.dev/docs/api/admin-graphql/latest/mutations/draftOrderCreate, …/draftOrderUpdate,
 *   …/draftOrderDelete): `draftOrderCreate(input: DraftOrderInput!)` and `draftOrderUpdate(id:, input:)`
 *   answer `draftOrder { id legacyResourceId invoiceUrl }` or `userErrors { field message }` (no line
 *   items, a line without a ProductVariant GID or with a quantity below 1, a reserveInventoryUntil
 *   that is no date, an unknown or completed draft); `draftOrderDelete(input: {id})` answers
 *   `deletedId`, or userErrors for an unknown or completed draft; `draftOrder(id:)` answers
 *   `{ id status order { id legacyResourceId } }` or null. `completeDraft` plays the buyer paying
 *   the draft's invoice: the draft becomes COMPLETED with an order, whose orders/paid payload carries
 *   the draft's custom attributes as note_attributes.
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
type Scripted =
  | { kind: "429"; retryAfter: string }
  | { kind: "throttled"; requested: number; available: number; restoreRate: number }
  | { kind: "500" }
  /** The next mutation is refused with this user error (its payload's userErrors). */
  | { kind: "userErrors"; field: string[]; message: string };

/** A draft order as the stand-in keeps it: the last DraftOrderInput it was given. */
export type StandInDraft = {
  id: string;
  legacyResourceId: string;
  status: "OPEN" | "COMPLETED";
  invoiceUrl: string;
  input: Record<string, any>;
  orderId: string | null;
};

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
  /** Draft orders by GID. */
  const drafts = new Map<string, StandInDraft>();
  let draftCounter = 0;
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
    if (op === "DraftOrderCreate" || op === "DraftOrderUpdate") {
      const field = op === "DraftOrderCreate" ? "draftOrderCreate" : "draftOrderUpdate";
      const input = request.variables.input ?? {};
      const existing = op === "DraftOrderUpdate" ? drafts.get(String(request.variables.id ?? "")) : undefined;
      const userErrors = draftInputErrors(input);
      if (op === "DraftOrderUpdate" && !existing) userErrors.unshift({ field: ["id"], message: "Draft order does not exist" });
      if (existing?.status === "COMPLETED") userErrors.unshift({ field: ["id"], message: "This order has been paid. Paid orders can't be updated." });
      if (userErrors.length > 0) return { status: 200, body: { data: { [field]: { draftOrder: null, userErrors } } } };
      let draft = existing;
      if (!draft) {
        const legacyResourceId = String(1_069_920_470 + ++draftCounter);
        draft = { id: `gid://shopify/DraftOrder/${legacyResourceId}`, legacyResourceId, status: "OPEN", invoiceUrl: `https://stand-in.myshopify.com/548380009/invoices/${randomUUID().replaceAll("-", "")}`, input: {}, orderId: null };
        drafts.set(draft.id, draft);
      }
      // An update replaces the fields it names (lineItems as a whole), as Shopify's does.
      draft.input = { ...draft.input, ...input };
      return { status: 200, body: { data: { [field]: { draftOrder: { id: draft.id, legacyResourceId: draft.legacyResourceId, invoiceUrl: draft.invoiceUrl }, userErrors: [] } } } };
    }
    if (op === "DraftOrderDelete") {
      const id = String(request.variables.input?.id ?? "");
      const draft = drafts.get(id);
      const userErrors = !draft ? [{ field: ["id"], message: "Draft order does not exist" }] : draft.status === "COMPLETED" ? [{ field: ["id"], message: "Completed draft orders can't be deleted." }] : [];
      if (userErrors.length > 0) return { status: 200, body: { data: { draftOrderDelete: { deletedId: null, userErrors } } } };
      drafts.delete(id);
      return { status: 200, body: { data: { draftOrderDelete: { deletedId: id, userErrors: [] } } } };
    }
    if (op === "DraftOrderState") {
      const draft = drafts.get(String(request.variables.id ?? ""));
      const order = draft?.orderId ? { id: `gid://shopify/Order/${draft.orderId}`, legacyResourceId: draft.orderId } : null;
      return { status: 200, body: { data: { draftOrder: draft ? { id: draft.id, status: draft.status, order } : null } } };
    }
    return { status: 200, body: { errors: [{ message: `Stand-in does not know the operation ${op ?? "(unnamed)"}.` }] } };
  }

  /** User errors of a DraftOrderInput, as Shopify words them. */
  function draftInputErrors(input: Record<string, any>): { field: string[]; message: string }[] {
    const errors: { field: string[]; message: string }[] = [];
    const lines: any[] | undefined = input.lineItems;
    if (lines !== undefined && lines.length === 0) errors.push({ field: ["lineItems"], message: "Add at least 1 product" });
    (lines ?? []).forEach((line, i) => {
      if (!/^gid:\/\/shopify\/ProductVariant\/\d+$/.test(String(line.variantId ?? ""))) errors.push({ field: ["lineItems", String(i), "variantId"], message: "Product variant is invalid" });
      if (!Number.isInteger(line.quantity) || line.quantity < 1) errors.push({ field: ["lineItems", String(i), "quantity"], message: "Quantity must be greater than or equal to 1" });
    });
    if (input.reserveInventoryUntil !== undefined && Number.isNaN(Date.parse(input.reserveInventoryUntil))) errors.push({ field: ["reserveInventoryUntil"], message: "Reserve inventory until is invalid" });
    return errors;
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
        else if (next?.kind === "userErrors") {
          const field = (request.operation ?? "").replace(/^./, (c) => c.toLowerCase());
          const payload = field === "draftOrderDelete" ? { deletedId: null } : { draftOrder: null };
          send(res, 200, { data: { [field]: { ...payload, userErrors: [{ field: next.field, message: next.message }] } } });
        }
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
    drafts,
    /** The buyer pays a draft's invoice: it becomes COMPLETED with Shopify order `orderId`, which has one open fulfillment order. */
    completeDraft(gid: string, orderId: number): StandInDraft {
      const draft = drafts.get(gid);
      if (!draft) throw new Error(`the stand-in has no draft ${gid}`);
      draft.status = "COMPLETED";
      draft.orderId = String(orderId);
      orders.set(String(orderId), { fulfillmentOrders: [{ id: `gid://shopify/FulfillmentOrder/${orderId}1`, status: "OPEN" }], fulfillments: [] });
      return draft;
    },
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

const numericId = (gid: string) => Number(gid.slice(gid.lastIndexOf("/") + 1));

/** A MailingAddressInput as the REST order JSON shows the address. */
function restAddress(a: Record<string, any> | undefined) {
  if (!a) return null;
  return { first_name: a.firstName ?? null, last_name: a.lastName ?? null, address1: a.address1 ?? null, address2: a.address2 ?? null, city: a.city ?? null, zip: a.zip ?? null, province_code: a.provinceCode ?? null, country_code: a.countryCode ?? null };
}

/**
 * The orders/paid payload of the order Shopify made of a completed draft: its line items (variant,
 * quantity, the overridden price), e-mail, addresses, shipping line, and its custom attributes as
 * note_attributes (Shopify's "additional details" of the order).
 */
export function paidOrderOfDraft(draft: StandInDraft) {
  if (!draft.orderId) throw new Error("the draft is not completed");
  const id = Number(draft.orderId);
  const input = draft.input;
  const shipping = input.shippingLine;
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${1000 + (id % 1000)}`,
    email: input.email ?? null,
    currency: "EUR",
    financial_status: "paid",
    source_name: "shopify_draft_order",
    created_at: "2026-11-26T09:00:00+01:00",
    note_attributes: (input.customAttributes ?? []).map((a: { key: string; value: string }) => ({ name: a.key, value: a.value })),
    customer: input.email ? { id: 7_100_000 + (id % 1000), email: input.email } : null,
    shipping_address: restAddress(input.shippingAddress),
    billing_address: restAddress(input.billingAddress),
    shipping_lines: shipping ? [{ code: shipping.title, title: shipping.title, price: shipping.priceWithCurrency?.amount ?? "0.00" }] : [],
    total_shipping_price_set: shipping ? { shop_money: { amount: shipping.priceWithCurrency.amount, currency_code: "EUR" } } : null,
    line_items: (input.lineItems ?? []).map((line: Record<string, any>, i: number) => ({
      id: id * 10 + i + 1,
      variant_id: numericId(line.variantId),
      sku: null,
      title: "Stand-in product",
      quantity: line.quantity,
      price: line.priceOverride?.amount ?? "10.00",
      total_discount: "0.00",
    })),
  };
}
