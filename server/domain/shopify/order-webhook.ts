import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { database } from "@/server/db/client";
import { completeCheckout, intakeAddress } from "@/server/domain/checkouts/complete-checkout";
import { ConflictError, DomainError } from "@/server/domain/errors";
import { createOrder } from "@/server/domain/orders/create-order";
import type { OrderIntake } from "@/server/domain/orders/intake";
import { log } from "@/server/log";
import { ShopifyApiError, type ShopifyCredentials } from "./admin-api";
import { openShopifyConnection } from "./connection";
import { DRAFT_MARKER, shopifyDraftOrderState } from "./draft-orders";
import { variantIdForms } from "./variants";

/**
 * A shop's paid orders from Shopify's order webhook (topic orders/paid; shopify.dev/docs/apps/build/webhooks):
 * the body is the order as the REST Admin API shows it, signed with X-Shopify-Hmac-Sha256 (base64 of
 * the HMAC-SHA256 of the raw body with the app's client secret). A verified order is mapped onto order
 * intake (createOrder: all or nothing, strictly once per external id) with Shopify's order id as the
 * external id, and a ShopifyOrder row written in the order's transaction: its unique key (shop,
 * Shopify order id) and the external id make repeated and concurrent deliveries one order.
 *
 * An order Shopify made of our own checkout's draft (shopify-connector.ts) is not taken a second
 * time: it carries the draft's marker (note attribute rx_draft_order_id), Shopify confirms that the
 * draft became this order, and the checkout is completed (completeCheckout, the platform-independent
 * completion) with the ShopifyOrder link written in the order's transaction.
 *
 * The order is held to the Management API's order intake rules (one schema, handed in by the door as
 * IntakeRules: the domain does not import the wire): an order they refuse is acknowledged (200, so
 * Shopify does not retry for 48 h and then drop the subscription) and recorded as a
 * ShopifyWebhookRefusal with its reason, which the admin tool shows under the shop.
 * docs/decisions/intake.md#shopify, #issue-36.
 */
export type ShopifyWebhookOutcome =
  /** Unknown shop or a shop without a Shopify connection. */
  | { kind: "not_found" }
  /** The signature does not match the body under the shop's client secret. */
  | { kind: "unauthorized" }
  /** Acknowledged: the order was taken, was taken before, or is not one intake takes (logged). */
  | { kind: "accepted"; result: "created" | "duplicate" | "ignored" | "rejected"; orderId?: string }
  /** The order names our checkout, and Shopify could not be asked to confirm it: Shopify is to send it again. */
  | { kind: "unavailable" };

/** The Management API's order intake rules, applied by the door's schema (server/api/management/order-intake.schemas.ts). */
export type IntakeRules = {
  /** Why a parsed JSON body holds text no request may hold (NUL, an unpaired surrogate), or null when it holds none. */
  unstorableText(body: unknown): string | null;
  /** The Management intake body (snake_case, as POST /v1/management/orders takes it) as intake's command, or why it is refused. */
  orderIntake(body: unknown): { ok: true; intake: OrderIntake } | { ok: false; reason: string };
};

/** True when `hmacHeader` is the body's signature under `secret` (compared in constant time). */
export function verifyShopifyHmac(rawBody: Buffer, hmacHeader: string | null, secret: string): boolean {
  if (!hmacHeader) return false;
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  const given = Buffer.from(hmacHeader, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// "abc", 1e308: NaN or Infinity minor units, which intake's money refuses with its reason.
const money = z.union([z.string(), z.number()]).transform((v) => Math.round(Number(v) * 100));
// Shopify's ids are numbers; a number beyond 2^53 (or a 5,000-digit one, Infinity) is not one it sent.
const shopifyId = z.union([z.number().int().nonnegative(), z.string()]).transform(String);
const address = z.object({
  first_name: z.string().nullish(),
  last_name: z.string().nullish(),
  address1: z.string().nullish(),
  address2: z.string().nullish(),
  city: z.string().nullish(),
  zip: z.string().nullish(),
  province: z.string().nullish(),
  country_code: z.string().nullish(),
});
/** The fields of Shopify's order payload that intake needs (the rest is ignored). */
const shopifyOrder = z.object({
  id: shopifyId,
  name: z.string().nullish(),
  email: z.string().nullish(),
  currency: z.string().default("EUR"),
  customer: z.object({ id: shopifyId, email: z.string().nullish() }).nullish(),
  shipping_address: address.nullish(),
  billing_address: address.nullish(),
  shipping_lines: z.array(z.object({ code: z.string().nullish(), title: z.string().nullish() })).default([]),
  note_attributes: z.array(z.object({ name: z.string(), value: z.union([z.string(), z.number()]).nullish() })).nullish(),
  total_shipping_price_set: z.object({ shop_money: z.object({ amount: money, currency_code: z.string() }) }).nullish(),
  line_items: z
    .array(
      z.object({
        id: shopifyId,
        variant_id: z.union([z.number(), z.string()]).nullish().transform((v) => (v === null || v === undefined ? null : String(v))),
        sku: z.string().nullish(),
        quantity: z.number(),
        price: money,
        total_discount: money.optional(),
      }),
    )
    .min(1),
});
type ShopifyOrderPayload = z.infer<typeof shopifyOrder>;

/**
 * Each line item's reference as intake matches shop SKUs (shopVariationId or shopSku): the mapped
 * variant id in the form the catalogue holds it, else the line's SKU.
 */
async function skuReferences(shopId: string, order: ShopifyOrderPayload): Promise<string[]> {
  const db = await database();
  const variantIds = order.line_items.flatMap((l) => (l.variant_id ? variantIdForms(l.variant_id) : []));
  const mapped = await db.shopSku.findMany({
    where: { shopId, deletedAt: null, shopVariationId: { in: variantIds } },
    select: { shopVariationId: true },
  });
  return order.line_items.map((line) => {
    const forms = line.variant_id ? variantIdForms(line.variant_id) : [];
    return mapped.find((m) => forms.includes(m.shopVariationId!))?.shopVariationId ?? line.sku ?? line.variant_id ?? "";
  });
}

/** Shopify's address as intake's: address1 split into street and house number as a checkout's is; address2 the addition. */
function toIntakeAddress(a: z.infer<typeof address>) {
  const split = intakeAddress({
    firstName: a.first_name ?? "",
    lastName: a.last_name ?? "",
    address1: a.address1 ?? "",
    city: a.city ?? "",
    zip: a.zip ?? "",
    countryCode: a.country_code ?? "",
    province: a.province ?? null,
  });
  return a.address2 ? { ...split, additional_address: a.address2 } : split;
}

/** The order as a Management intake body (what POST /v1/management/orders takes), for intake's own rules. */
async function toIntakeBody(shop: { id: string; identifier: string }, order: ShopifyOrderPayload): Promise<Record<string, unknown>> {
  const references = await skuReferences(shop.id, order);
  const delivery = (order.shipping_address ?? order.billing_address)!;
  const shipping = order.total_shipping_price_set?.shop_money;
  const methods = order.shipping_lines.flatMap((l) => (l.code ? [l.code] : []));
  const email = order.customer?.email ?? order.email;
  return {
    shop_identifier: shop.identifier,
    external_id: order.id,
    ...(order.name ? { name: order.name } : {}),
    // A guest checkout has no customer: the order stands for its buyer.
    customer: { id: order.customer?.id ?? `order-${order.id}`, ...(email ? { email } : {}) },
    delivery_address: toIntakeAddress(delivery),
    ...(order.billing_address ? { invoice_address: toIntakeAddress(order.billing_address) } : {}),
    ...(shipping ? { shipping_cost: { amount: shipping.amount, currency: shipping.currency_code } } : {}),
    ...(methods.length ? { shipping_methods: methods } : {}),
    additional_details: { shopify: { order_id: order.id, order_name: order.name ?? null } },
    fulfillments: [
      {
        external_id: "shopify",
        items: order.line_items.map((line, i) => ({
          external_id: line.id,
          sku_reference: references[i],
          quantity: line.quantity,
          total_paid: { amount: line.price * line.quantity - (line.total_discount ?? 0), currency: order.currency },
        })),
      },
    ],
  };
}

/** Shopify's order id as the payload gives it, for a refusal's row (bounded; null when there is none). */
function sentOrderId(body: unknown): string | null {
  const id = body && typeof body === "object" ? (body as { id?: unknown }).id : undefined;
  return typeof id === "number" || typeof id === "string" ? String(id).slice(0, 64) : null;
}

/** The reason of a Shopify payload that is no order (its first few issues, with their paths). */
function payloadReason(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`)
    .join("; ");
}

/** Handles one webhook delivery to a shop: verify, then (for orders/paid) intake once. */
export async function receiveShopifyOrderWebhook(
  shopId: string,
  request: { rawBody: Buffer; hmac: string | null; topic: string | null; webhookId: string | null },
  rules: IntakeRules,
): Promise<ShopifyWebhookOutcome> {
  const db = await database();
  const shop = await db.shop.findUnique({ where: { id: shopId }, select: { id: true, identifier: true, organisationId: true } });
  const connection = shop && (await openShopifyConnection(shop.id));
  if (!shop || !connection) return { kind: "not_found" };
  if (!verifyShopifyHmac(request.rawBody, request.hmac, connection.clientSecret)) return { kind: "unauthorized" };

  const fields = { shopId, topic: request.topic, webhookId: request.webhookId };
  if (request.topic !== "orders/paid") {
    log.info("Shopify webhook of a topic intake does not take, acknowledged", fields);
    return { kind: "accepted", result: "ignored" };
  }
  let body: unknown;
  try {
    body = JSON.parse(request.rawBody.toString("utf8"));
  } catch {
    return refuse(shopId, request.webhookId, null, "The body is not JSON.");
  }
  // Before anything is looked up: a NUL in an id or a draft marker would reach PostgreSQL.
  const unstorable = rules.unstorableText(body);
  if (unstorable) return refuse(shopId, request.webhookId, null, unstorable);
  const parsed = shopifyOrder.safeParse(body);
  if (!parsed.success) return refuse(shopId, request.webhookId, sentOrderId(body), payloadReason(parsed.error));
  const order = parsed.data;
  if (!(order.shipping_address ?? order.billing_address)) return refuse(shopId, request.webhookId, order.id, "The order has neither a shipping nor a billing address.");
  const existing = await db.shopifyOrder.findUnique({ where: { shopId_shopifyOrderId: { shopId, shopifyOrderId: order.id } }, select: { orderId: true } });
  if (existing) return { kind: "accepted", result: "duplicate", orderId: existing.orderId };

  const checkout = await checkoutPaidBy(shopId, order, connection);
  if (checkout === "unavailable") return { kind: "unavailable" };
  if (checkout) {
    try {
      const completed = await completeCheckout(checkout.id, {
        paidOnPlatform: true,
        onOrder: async (tx, orderId) => void (await tx.shopifyOrder.create({ data: { shopId, shopifyOrderId: order.id, orderId } })),
      });
      return { kind: "accepted", result: completed.alreadyCompleted ? "duplicate" : "created", orderId: completed.orderId };
    } catch (error) {
      if (error instanceof DomainError) return refuse(shopId, request.webhookId, order.id, `Checkout ${checkout.id}: ${refusalReason(error)}`);
      throw error;
    }
  }

  const intake = rules.orderIntake(await toIntakeBody(shop, order));
  if (!intake.ok) return refuse(shopId, request.webhookId, order.id, intake.reason);
  try {
    const { id: orderId } = await createOrder(shop.organisationId, intake.intake, { type: "SYSTEM" }, async (tx, orderId) => {
      await tx.shopifyOrder.create({ data: { shopId, shopifyOrderId: order.id, orderId } });
    });
    return { kind: "accepted", result: "created", orderId };
  } catch (error) {
    // A concurrent or earlier delivery made the order (the external id is taken).
    if (error instanceof ConflictError && error.code === "order_already_exists") return { kind: "accepted", result: "duplicate" };
    // Intake refused the order (an unmapped variant, an address it cannot use): Shopify would only
    // send it again, so it is acknowledged and recorded for the admin.
    if (error instanceof DomainError) return refuse(shopId, request.webhookId, order.id, refusalReason(error));
    throw error;
  }
}

const MAX_REASON_CHARS = 2000;

function refusalReason(error: DomainError): string {
  const fields = "fields" in error && error.fields ? ` ${JSON.stringify(error.fields)}` : "";
  return `${error.message}${fields}`;
}

/**
 * A signed order intake refuses: acknowledged, logged and recorded (one row per delivery: a
 * redelivery of the same webhook id, or a concurrent one, writes none more).
 */
async function refuse(shopId: string, webhookId: string | null, shopifyOrderId: string | null, reason: string): Promise<ShopifyWebhookOutcome> {
  const db = await database();
  const bounded = reason.slice(0, MAX_REASON_CHARS);
  log.warn("Shopify order refused by order intake, acknowledged and not taken", { shopId, webhookId, shopifyOrderId, reason: bounded });
  await db.shopifyWebhookRefusal.createMany({
    data: [{ shopId, webhookId: webhookId?.slice(0, 255) ?? null, shopifyOrderId, reason: bounded }],
    skipDuplicates: true,
  });
  return { kind: "accepted", result: "rejected" };
}

/** The shop's refused deliveries, newest first (the admin tool's Shops page), in the organisation's scope. */
export async function listShopifyWebhookRefusals(organisationId: string, shopId: string, limit = 50) {
  const db = await database();
  return db.shopifyWebhookRefusal.findMany({
    where: { shopId, shop: { organisationId } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, webhookId: true, shopifyOrderId: true, reason: true, createdAt: true },
  });
}

/**
 * The checkout a paid order completes, if any: the order names one of this shop's checkouts by the
 * marker attribute, and Shopify confirms that the checkout's draft became this very order. A buyer
 * can put any attribute on a cart, so the marker alone proves nothing: unconfirmed, the order is an
 * ordinary one (logged). "unavailable" when Shopify could not be asked.
 */
async function checkoutPaidBy(shopId: string, order: ShopifyOrderPayload, connection: ShopifyCredentials): Promise<{ id: string } | null | "unavailable"> {
  const marker = order.note_attributes?.find((a) => a.name === DRAFT_MARKER)?.value;
  if (marker === undefined || marker === null) return null;
  const db = await database();
  const draft = await db.draftOrder.findFirst({ where: { id: String(marker), shopId, kind: { not: "RESERVATION" } }, select: { id: true, shopifyDraftOrderGid: true } });
  const fields = { shopId, shopifyOrderId: order.id, marker: String(marker).slice(0, 100) };
  if (!draft?.shopifyDraftOrderGid) {
    log.warn("Shopify order names no checkout of this shop by its marker; taken as an ordinary order", fields);
    return null;
  }
  let state: Awaited<ReturnType<typeof shopifyDraftOrderState>>;
  try {
    state = await shopifyDraftOrderState(connection, draft.shopifyDraftOrderGid);
  } catch (error) {
    if (!(error instanceof ShopifyApiError)) throw error;
    log.warn("Shopify could not confirm the checkout of a paid order; Shopify will send it again", { ...fields, reason: error.message });
    return "unavailable";
  }
  if (state?.orderId !== order.id) {
    log.warn("Shopify does not confirm that the checkout's draft became this order; taken as an ordinary order", fields);
    return null;
  }
  return { id: draft.id };
}
