import { database, type Tx } from "@/server/db/client";
import { enqueueTask, type TaskPayload } from "@/server/domain/tasks/enqueue";
import { log } from "@/server/log";
import type { Wait } from "@/server/http/retry-after";
import { shopifyAdminApi } from "./admin-api";
import { openShopifyConnection } from "./connection";

/**
 * complete_order's "first tracking link is forwarded with the shipment update", for orders that came
 * from a Shopify shop: a background task (shopify.push_tracking) written in the completion's
 * transaction, so it exists exactly when the completion commits and never blocks it; the task runner
 * retries it with growing delays, and a task that keeps failing is listed on the admin tool's Shops
 * page (task-problems.ts). The task sends the link as a fulfillment with tracking info on the
 * order's open fulfillment orders (fulfillmentCreate). At least once: before creating, it looks for a
 * fulfillment that already carries the link, so a repeated attempt creates none.
 * docs/decisions/intake.md#shopify.
 */
export const PUSH_TRACKING_TASK = "shopify.push_tracking";

/** Our carriers as Shopify's tracking companies (shopify.dev, FulfillmentTrackingInfo company); "Other" names none. */
const SHOPIFY_COMPANY: Record<string, string | undefined> = { DHL: "DHL Express", DPD: "DPD", UPS: "UPS", Hermes: "Hermes", FedEx: "FedEx" };

/** Enqueues the push in the completion's transaction when the pharmacy order's order came from Shopify. */
export async function enqueueShopifyTrackingPush(tx: Tx, pharmacyOrder: { id: string; orderId: string }, first: { trackingUrl: string; carrier: string }): Promise<void> {
  const origin = await tx.shopifyOrder.findUnique({ where: { orderId: pharmacyOrder.orderId }, select: { shopId: true } });
  if (!origin) return;
  await enqueueTask(tx, PUSH_TRACKING_TASK, {
    pharmacyOrderId: pharmacyOrder.id,
    shopId: origin.shopId,
    trackingUrl: first.trackingUrl,
    carrier: first.carrier,
  });
}

const ORDER_FULFILLMENT_QUERY = `query OrderFulfillmentState($id: ID!) {
  order(id: $id) {
    id
    fulfillments(first: 50) {
      trackingInfo(first: 10) {
        url
      }
    }
    fulfillmentOrders(first: 50) {
      nodes {
        id
        status
      }
    }
  }
}`;

const FULFILLMENT_CREATE = `mutation FulfillmentCreate($fulfillment: FulfillmentInput!) {
  fulfillmentCreate(fulfillment: $fulfillment) {
    fulfillment {
      id
      status
    }
    userErrors {
      field
      message
    }
  }
}`;

type OrderFulfillmentState = {
  order: {
    id: string;
    fulfillments: { trackingInfo: { url: string | null }[] }[];
    fulfillmentOrders: { nodes: { id: string; status: string }[] };
  } | null;
};
type FulfillmentCreateResult = { fulfillmentCreate: { fulfillment: { id: string } | null; userErrors: { field: string[] | null; message: string }[] } };

/** Fulfillment orders a fulfillment can be created on; ON_HOLD and SCHEDULED ones may open later. */
const FULFILLABLE = new Set(["OPEN", "IN_PROGRESS"]);
const MAY_OPEN = new Set(["ON_HOLD", "SCHEDULED"]);

function stringOf(payload: TaskPayload, key: string): string {
  const value = payload[key];
  if (typeof value !== "string" || value === "") throw new Error(`The task's payload has no ${key}.`);
  return value;
}

/** The task: one attempt at putting the tracking link on the Shopify order. Throws to be retried. */
export async function pushTrackingToShopify(payload: TaskPayload, wait?: Wait): Promise<void> {
  const pharmacyOrderId = stringOf(payload, "pharmacyOrderId");
  const shopId = stringOf(payload, "shopId");
  const trackingUrl = stringOf(payload, "trackingUrl");
  const carrier = typeof payload.carrier === "string" ? payload.carrier : "Other";
  const db = await database();
  const pharmacyOrder = await db.pharmacyOrder.findUnique({
    where: { id: pharmacyOrderId },
    select: { name: true, order: { select: { shopifyOrder: { select: { shopifyOrderId: true } } } } },
  });
  const shopifyOrderId = pharmacyOrder?.order.shopifyOrder?.shopifyOrderId;
  const connection = await openShopifyConnection(shopId);
  if (!shopifyOrderId || !connection) {
    // The shop was disconnected meanwhile: there is no one to tell.
    log.warn("tracking link not sent to Shopify: the shop has no Shopify connection any more", { pharmacyOrderId, shopId });
    return;
  }
  const api = shopifyAdminApi(connection, wait);
  const { order } = await api.request<OrderFulfillmentState>(ORDER_FULFILLMENT_QUERY, { id: `gid://shopify/Order/${shopifyOrderId}` });
  if (!order) throw new Error(`Shopify does not know order ${shopifyOrderId}.`);
  if (order.fulfillments.some((f) => f.trackingInfo.some((t) => t.url === trackingUrl))) return;

  const open = order.fulfillmentOrders.nodes.filter((f) => FULFILLABLE.has(f.status));
  if (open.length === 0) {
    if (order.fulfillmentOrders.nodes.some((f) => MAY_OPEN.has(f.status))) throw new Error("The Shopify order's fulfillment orders are on hold or scheduled.");
    // Everything is fulfilled or cancelled in Shopify already (by the shop or an earlier pharmacy order).
    log.info("tracking link not sent to Shopify: the order has no open fulfillment order", { pharmacyOrderId, shopId });
    return;
  }
  const company = SHOPIFY_COMPANY[carrier];
  const result = await api.request<FulfillmentCreateResult>(FULFILLMENT_CREATE, {
    fulfillment: {
      lineItemsByFulfillmentOrder: open.map((f) => ({ fulfillmentOrderId: f.id })),
      trackingInfo: { url: trackingUrl, ...(company ? { company } : {}) },
      notifyCustomer: true,
    },
  });
  const problems = result.fulfillmentCreate.userErrors;
  if (problems.length > 0 || !result.fulfillmentCreate.fulfillment) {
    throw new Error(`Shopify refused the fulfillment: ${problems.map((p) => p.message).join("; ").slice(0, 300) || "no fulfillment returned"}`);
  }
}
