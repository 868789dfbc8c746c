import { presentPharmacySku } from "@/server/api/external-pharmacy/presenters";
import { presentPharmacyOrderDetail } from "@/server/api/external-pharmacy/pharmacy-order-presenters";
import type { Db } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { getPharmacyOrderDetail } from "@/server/domain/pharmacy-orders/queries";
import type { WebhookDataBuilder } from "@/server/domain/webhooks/deliver-attempt";

/**
 * The `data` of a webhook delivery, built from current state at each attempt with the same
 * presenters as the GET endpoints. Pharmacy-scoped subscriptions get the pharmacy's view (with
 * prescription_file); organisation-level ones get it without prescription_file, with skus enriched
 * by the shop's ids and the fulfillment added. Returns null when the subject no longer exists.
 */
export const buildWebhookData: WebhookDataBuilder = async (db, event, scope) => {
  switch (event.eventType) {
    case "pharmacy_order_created":
    case "pharmacy_order_updated":
      return pharmacyOrderData(db, event.pharmacyId, event.subjectId, scope);
    case "pharmacy_sku_stock_updated":
      return pharmacySkuData(db, event.subjectId, scope);
    default:
      // Organisation-only events carry the data captured when they occurred.
      return (event.data as Record<string, unknown> | null) ?? {};
  }
};

type ShopIds = { shop_variation_id: string | null; shop_product_external_id: string | null };

async function pharmacyOrderData(db: Db, pharmacyId: string | null, pharmacyOrderId: string, scope: "PHARMACY" | "ORGANISATION") {
  if (!pharmacyId) return null;
  let detail;
  try {
    detail = await getPharmacyOrderDetail(db, pharmacyId, pharmacyOrderId);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
  const presented = presentPharmacyOrderDetail(detail);
  const order = {
    ...presented.order,
    // Payload contract: always an integer, 0 when no shipping is charged.
    shipping_costs_amount: presented.shipping_costs_amount ?? 0,
    shipping_costs_currency: presented.shipping_costs_currency,
  };
  if (scope === "PHARMACY") return { ...presented, order };

  const { prescription_file: _omitted, ...withoutFile } = presented;
  const pharmacyOrder = await db.pharmacyOrder.findUniqueOrThrow({
    where: { id: pharmacyOrderId },
    select: {
      fulfillment: {
        select: {
          id: true,
          externalId: true,
          status: true,
          items: {
            orderBy: [{ createdAt: "asc" }, { id: "asc" }],
            select: {
              id: true,
              status: true,
              quantity: true,
              sku: { select: { id: true, displayName: true, pzn: true } },
              shopSku: { select: { shopVariationId: true, shopProduct: { select: { externalId: true } } } },
            },
          },
        },
      },
    },
  });
  const shopIds = new Map<string, ShopIds>(
    pharmacyOrder.fulfillment.items.map((item) => [
      item.id,
      { shop_variation_id: item.shopSku?.shopVariationId ?? null, shop_product_external_id: item.shopSku?.shopProduct.externalId ?? null },
    ]),
  );
  const f = pharmacyOrder.fulfillment;
  return {
    ...withoutFile,
    order,
    order_items: presented.order_items.map((item) => ({
      ...item,
      sku: { ...item.sku, ...(shopIds.get(item.uid) ?? { shop_variation_id: null, shop_product_external_id: null }) },
    })),
    fulfillment: {
      uid: f.id,
      external_id: f.externalId,
      status: f.status,
      items: f.items.map((item) => ({
        uid: item.id,
        order_item_uid: item.id,
        status: item.status,
        amount: item.quantity,
        sku: { uid: item.sku.id, display_name: item.sku.displayName, pzn: item.sku.pzn, ...shopIds.get(item.id)! },
      })),
    },
  };
}

async function pharmacySkuData(db: Db, pharmacySkuId: string, scope: "PHARMACY" | "ORGANISATION") {
  const row = await db.pharmacySku.findUnique({ where: { id: pharmacySkuId }, include: { sku: { include: { product: true } } } });
  if (!row) return null;
  const presented = presentPharmacySku(row);
  if (scope === "PHARMACY") return presented;
  // The organisation's shop that sells this SKU (the oldest live shop SKU when several do).
  const shopSku = await db.shopSku.findFirst({
    where: { skuId: row.skuId, deletedAt: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { shopVariationId: true, shopProduct: { select: { externalId: true } }, shop: { select: { identifier: true } } },
  });
  return {
    ...presented,
    sku: {
      ...presented.sku,
      shop_variation_id: shopSku?.shopVariationId ?? null,
      shop_product_external_id: shopSku?.shopProduct.externalId ?? null,
    },
    shop_identifier: shopSku?.shop.identifier ?? null,
  };
}
