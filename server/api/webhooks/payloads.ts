import { presentPharmacyOrderDetail } from "@/server/api/external-pharmacy/pharmacy-order.presenters";
import { presentPharmacySku, type PharmacySkuWithSku } from "@/server/api/external-pharmacy/presenters";
import { findPharmacySku, findShopOfSku, type ShopOfSku } from "@/server/domain/catalogue/pharmacy-skus";
import { NotFoundError } from "@/server/domain/errors";
import {
  getPharmacyOrderDetail,
  getPharmacyOrderFulfillment,
  type PharmacyOrderDetail,
  type PharmacyOrderFulfillment,
} from "@/server/domain/pharmacy-orders/queries";
import type { WebhookDataBuilder } from "@/server/domain/webhooks/deliver-attempt";

/**
 * The `data` of a webhook delivery, built from current state at each attempt with the same
 * presenters as the GET endpoints. Pharmacy-scoped subscriptions get the pharmacy's view (with
 * prescription_file); organisation-level ones get it without prescription_file, with skus enriched
 * by the shop's ids and the fulfillment added. Returns null when the subject no longer exists.
 * The sample deliveries of test sends run the same presenters over fixed data (./samples.ts).
 */
export const buildWebhookData: WebhookDataBuilder = async (event, scope) => {
  switch (event.eventType) {
    case "pharmacy_order_created":
    case "pharmacy_order_updated": {
      if (!event.pharmacyId) return null;
      let detail: PharmacyOrderDetail;
      try {
        detail = await getPharmacyOrderDetail(event.pharmacyId, event.subjectId);
      } catch (error) {
        if (error instanceof NotFoundError) return null;
        throw error;
      }
      const fulfillment = scope === "ORGANISATION" ? await getPharmacyOrderFulfillment(event.subjectId) : null;
      return presentPharmacyOrderPayload(detail, fulfillment);
    }
    case "pharmacy_sku_stock_updated": {
      const row = await findPharmacySku(event.subjectId);
      if (!row) return null;
      return presentPharmacySkuPayload(row, scope === "ORGANISATION" ? await findShopOfSku(row.skuId) : null);
    }
    default:
      // Organisation-only events carry the data captured when they occurred.
      return (event.data as Record<string, unknown> | null) ?? {};
  }
};

/**
 * A pharmacy order's payload: the pharmacy's detail (pharmacy scope), or, given the fulfillment,
 * the organisation's (no prescription_file, shop ids on each sku, the fulfillment added).
 */
export function presentPharmacyOrderPayload(detail: PharmacyOrderDetail, fulfillment: PharmacyOrderFulfillment | null) {
  const presented = presentPharmacyOrderDetail(detail);
  const order = {
    ...presented.order,
    // Payload contract: always an integer, 0 when no shipping is charged.
    shipping_costs_amount: presented.shipping_costs_amount ?? 0,
    shipping_costs_currency: presented.shipping_costs_currency,
  };
  if (!fulfillment) return { ...presented, order };

  const { prescription_file: _omitted, ...withoutFile } = presented;
  const shopIds = new Map(
    fulfillment.items.map((item) => [
      item.id,
      { shop_variation_id: item.shopVariationId, shop_product_external_id: item.shopProductExternalId },
    ]),
  );
  const noShopIds = { shop_variation_id: null, shop_product_external_id: null };
  return {
    ...withoutFile,
    order,
    order_items: presented.order_items.map((item) => ({ ...item, sku: { ...item.sku, ...(shopIds.get(item.uid) ?? noShopIds) } })),
    fulfillment: {
      uid: fulfillment.id,
      external_id: fulfillment.externalId,
      status: fulfillment.status,
      items: fulfillment.items.map((item) => ({
        uid: item.id,
        order_item_uid: item.id,
        status: item.status,
        amount: item.quantity,
        sku: { uid: item.sku.id, display_name: item.sku.displayName, pzn: item.sku.pzn, ...shopIds.get(item.id)! },
      })),
    },
  };
}

/** A pharmacy SKU's payload: as the pharmacy sees it, or, given the shop, with the shop's ids and identifier. */
export function presentPharmacySkuPayload(row: PharmacySkuWithSku, shop: ShopOfSku | null) {
  const presented = presentPharmacySku(row);
  if (!shop) return presented;
  return {
    ...presented,
    sku: { ...presented.sku, shop_variation_id: shop.shopVariationId, shop_product_external_id: shop.shopProductExternalId },
    shop_identifier: shop.shopIdentifier,
  };
}
