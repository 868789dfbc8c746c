import type { Tx } from "@/server/db/client";
import type { CheckoutAddress } from "@/server/domain/checkouts/checkout-request";
import { UpstreamError } from "@/server/domain/errors";
import { enqueueTask, type TaskPayload } from "@/server/domain/tasks/enqueue";
import type { Wait } from "@/server/http/retry-after";
import { log } from "@/server/log";
import { shopifyAdminApi, ShopifyApiError, type ShopifyCredentials } from "./admin-api";
import { openShopifyConnection } from "./connection";

/**
 * Our draft orders (reservations and checkouts) as Shopify draft orders, for a shop connected to
 * Shopify (shopify.dev/docs/api/admin-graphql: draftOrderCreate, draftOrderUpdate with
 * DraftOrderInput, draftOrderDelete). Each carries the custom attribute rx_draft_order_id = our
 * DraftOrder's id: an order Shopify makes of the draft carries it as a note attribute, which is how
 * the order webhook knows the order as our checkout's (order-webhook.ts). Never called inside a
 * database transaction: the callers commit their rows first. docs/decisions/intake.md#shopify.
 */
export const DRAFT_MARKER = "rx_draft_order_id";

const DRAFT_GID = "gid://shopify/DraftOrder/";
export const shopifyDraftGid = (legacyId: string) => `${DRAFT_GID}${legacyId}`;
/** The draft's legacy id: the number in the Shopify admin's address of the draft, and the Public API's draft_order_id. */
export const legacyIdOfDraftGid = (gid: string) => gid.slice(DRAFT_GID.length);

/** What our draft order puts into Shopify's. Prices are euro cents (the shop SKUs' prices). */
export type ShopifyDraftContent = {
  /** Our DraftOrder's id, the marker. */
  draftOrderId: string;
  lines: { variantGid: string; quantity: number; unitPrice: number | null }[];
  /** A reservation's hold: Shopify holds the variants' inventory until then. */
  reserveUntil?: Date;
  email?: string | null;
  shippingAddress?: CheckoutAddress | null;
  billingAddress?: CheckoutAddress | null;
  shippingLine?: { title: string; price: number } | null;
  /** Further custom attributes (a checkout's prepaid=true/false). */
  attributes?: Record<string, string>;
};

export type ShopifyDraft = { gid: string; legacyId: string; invoiceUrl: string | null };

const DRAFT_ORDER_CREATE = `mutation DraftOrderCreate($input: DraftOrderInput!) {
  draftOrderCreate(input: $input) {
    draftOrder {
      id
      legacyResourceId
      invoiceUrl
    }
    userErrors {
      field
      message
    }
  }
}`;

const DRAFT_ORDER_UPDATE = `mutation DraftOrderUpdate($id: ID!, $input: DraftOrderInput!) {
  draftOrderUpdate(id: $id, input: $input) {
    draftOrder {
      id
      legacyResourceId
      invoiceUrl
    }
    userErrors {
      field
      message
    }
  }
}`;

const DRAFT_ORDER_DELETE = `mutation DraftOrderDelete($input: DraftOrderDeleteInput!) {
  draftOrderDelete(input: $input) {
    deletedId
    userErrors {
      field
      message
    }
  }
}`;

const DRAFT_ORDER_STATE = `query DraftOrderState($id: ID!) {
  draftOrder(id: $id) {
    id
    status
    order {
      id
      legacyResourceId
    }
  }
}`;

type UserError = { field: string[] | null; message: string };
type DraftPayload = { draftOrder: { id: string; legacyResourceId: string; invoiceUrl: string | null } | null; userErrors: UserError[] };

const money = (cents: number) => ({ amount: (cents / 100).toFixed(2), currencyCode: "EUR" });

function mailingAddress(address: CheckoutAddress) {
  return {
    firstName: address.firstName,
    lastName: address.lastName,
    address1: address.address1,
    city: address.city,
    zip: address.zip,
    countryCode: address.countryCode.toUpperCase(),
    ...(address.province ? { provinceCode: address.province } : {}),
  };
}

/** The DraftOrderInput of our draft: the variants at the checkout's prices (priceOverride), the marker, and what is known of the buyer. */
export function draftOrderInput(content: ShopifyDraftContent): Record<string, unknown> {
  return {
    lineItems: content.lines.map((line) => ({
      variantId: line.variantGid,
      quantity: line.quantity,
      ...(line.unitPrice !== null ? { priceOverride: money(line.unitPrice) } : {}),
    })),
    customAttributes: [{ key: DRAFT_MARKER, value: content.draftOrderId }, ...Object.entries(content.attributes ?? {}).map(([key, value]) => ({ key, value }))],
    ...(content.reserveUntil ? { reserveInventoryUntil: content.reserveUntil.toISOString() } : {}),
    ...(content.email ? { email: content.email } : {}),
    ...(content.shippingAddress ? { shippingAddress: mailingAddress(content.shippingAddress) } : {}),
    ...(content.billingAddress ? { billingAddress: mailingAddress(content.billingAddress) } : {}),
    ...(content.shippingLine ? { shippingLine: { title: content.shippingLine.title, priceWithCurrency: money(content.shippingLine.price) } } : {}),
  };
}

const described = (errors: UserError[]) => errors.map((e) => e.message).join("; ").slice(0, 300);

/**
 * Creates the Shopify draft of our draft order, or replaces the content of the one it already has
 * (`existingGid`: a reservation's draft, which its checkout updates). Shopify's refusal (userErrors)
 * is a ShopifyApiError that is not retryable.
 */
export async function saveShopifyDraftOrder(connection: ShopifyCredentials, content: ShopifyDraftContent, existingGid: string | null, wait?: Wait): Promise<ShopifyDraft> {
  const api = shopifyAdminApi(connection, wait);
  const input = draftOrderInput(content);
  const payload = existingGid
    ? (await api.request<{ draftOrderUpdate: DraftPayload }>(DRAFT_ORDER_UPDATE, { id: existingGid, input })).draftOrderUpdate
    : (await api.request<{ draftOrderCreate: DraftPayload }>(DRAFT_ORDER_CREATE, { input })).draftOrderCreate;
  if (payload.userErrors.length > 0 || !payload.draftOrder) {
    throw new ShopifyApiError(`Shopify refused the draft order: ${described(payload.userErrors) || "no draft order returned"}`);
  }
  const draft = payload.draftOrder;
  return { gid: draft.id, legacyId: String(draft.legacyResourceId), invoiceUrl: draft.invoiceUrl };
}

/** A failed Shopify call of a Public API command as its answer: refused (502) or unavailable (503). */
export function shopPlatformError(error: unknown, doing: string): unknown {
  if (!(error instanceof ShopifyApiError)) return error;
  return new UpstreamError(`${doing}: ${error.message}`, error.retryable);
}

/** A Shopify draft's state and the order it became, or null when Shopify has no such draft (deleted). */
export async function shopifyDraftOrderState(connection: ShopifyCredentials, gid: string, wait?: Wait) {
  const { draftOrder } = await shopifyAdminApi(connection, wait).request<{
    draftOrder: { id: string; status: string; order: { id: string; legacyResourceId: string } | null } | null;
  }>(DRAFT_ORDER_STATE, { id: gid });
  return draftOrder ? { status: draftOrder.status, orderId: draftOrder.order ? String(draftOrder.order.legacyResourceId) : null } : null;
}

export const DELETE_DRAFT_TASK = "shopify.delete_draft_order";

/** Enqueues the deletion of our draft order's Shopify draft in the caller's transaction (an expired reservation, a checkout Shopify failed). */
export async function enqueueShopifyDraftDeletion(tx: Tx, draft: { id: string; shopId: string; shopifyDraftOrderGid: string }): Promise<void> {
  await enqueueTask(tx, DELETE_DRAFT_TASK, { draftOrderId: draft.id, shopId: draft.shopId, shopifyDraftOrderGid: draft.shopifyDraftOrderGid });
}

function stringOf(payload: TaskPayload, key: string): string {
  const value = payload[key];
  if (typeof value !== "string" || value === "") throw new Error(`The task's payload has no ${key}.`);
  return value;
}

/**
 * The task: deletes a Shopify draft (draftOrderDelete), which ends its inventory reservation at
 * once and clears it from the Shopify admin. Done also when there is nothing to delete: Shopify
 * refuses the deletion and the draft is gone (deleted before) or became an order (completed in
 * Shopify), or the shop is no longer connected. Any other refusal or failure throws, to be retried.
 */
export async function deleteShopifyDraftOrder(payload: TaskPayload, wait?: Wait): Promise<void> {
  const shopId = stringOf(payload, "shopId");
  const gid = stringOf(payload, "shopifyDraftOrderGid");
  const connection = await openShopifyConnection(shopId);
  if (!connection) {
    log.warn("Shopify draft order not deleted: the shop has no Shopify connection any more", { shopId, gid });
    return;
  }
  const { draftOrderDelete } = await shopifyAdminApi(connection, wait).request<{ draftOrderDelete: { deletedId: string | null; userErrors: UserError[] } }>(
    DRAFT_ORDER_DELETE,
    { input: { id: gid } },
  );
  if (draftOrderDelete.deletedId && draftOrderDelete.userErrors.length === 0) return;
  const state = await shopifyDraftOrderState(connection, gid, wait);
  if (!state) return;
  if (state.status === "COMPLETED") {
    log.info("Shopify draft order not deleted: it became an order in Shopify", { shopId, gid, order: state.orderId });
    return;
  }
  throw new Error(`Shopify refused to delete draft order ${legacyIdOfDraftGid(gid)}: ${described(draftOrderDelete.userErrors) || "no deleted id returned"}`);
}
