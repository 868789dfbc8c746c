import { database } from "@/server/db/client";
import { shopifyAvailableBySku } from "@/server/domain/shopify/inventory";
import { offeredSkus, type StockRequest } from "./offered-skus";
import { shopOfOrganisation } from "./shops";
import { availableQuantities } from "./stock";

export type LiveStockEntry = { skuId: string; quantity: number; available: number; canBeServed: boolean };

/**
 * Whether each requested quantity can be served now, and how much is available (stock.ts: stock
 * minus live reservation holds). Each entry is judged on its own (two entries of one SKU are not
 * added up). A SKU the shop does not offer (unknown, removed, or another organisation's) has 0
 * available: it cannot be served, and it tells nothing about other organisations.
 *
 * When the shop is connected to Shopify, a SKU mapped to a Shopify variant is also bounded by
 * Shopify's available inventory of that variant: the answer is the smaller of the two, since the
 * shop must sell it and a pharmacy must have it (routing uses pharmacy stock).
 * docs/decisions/intake.md#shopify.
 */
export async function checkLiveStock(organisationId: string, shopIdentifier: string, items: StockRequest[]): Promise<LiveStockEntry[]> {
  const db = await database();
  const shop = await shopOfOrganisation(db, organisationId, shopIdentifier);
  const offered = await offeredSkus(db, shop.id, items.map((i) => i.skuId));
  const [available, shopify] = await Promise.all([availableQuantities(db, organisationId, [...offered.keys()]), shopifyAvailableBySku(shop.id, [...offered.keys()])]);
  return items.map((item) => {
    const own = available.get(item.skuId) ?? 0;
    const inShopify = shopify?.get(item.skuId);
    const quantity = inShopify === undefined ? own : Math.min(own, inShopify);
    return { skuId: item.skuId, quantity: item.quantity, available: quantity, canBeServed: quantity >= item.quantity };
  });
}
