import { presentPharmacyOrderDetail } from "@/server/api/external-pharmacy/pharmacy-order.presenters";
import { presentPharmacySku, type PharmacySkuWithSku } from "@/server/api/external-pharmacy/pharmacy-sku.presenters";
import type { ShopOfSku } from "@/server/domain/catalogue/pharmacy-skus";
import type { PharmacyOrderDetail, PharmacyOrderFulfillment } from "@/server/domain/pharmacy-orders/queries";

/** The `data` of the pharmacy events' webhook payloads, from the GET endpoints' presenters. */

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
