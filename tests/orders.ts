/** Order intake bodies and shop SKUs for tests, on top of a tenant from tests/fixtures.ts. */
import { randomUUID } from "node:crypto";
import type { Tenant } from "./fixtures";
import { post } from "./http";

/** Shop SKUs so intake can resolve sku_reference to the tenant's SKUs (OTC and Rx), and Rx stock at pharmacy A. */
export async function withShopSkus(t: Tenant) {
  const otc = await t.db.shopSku.create({
    data: { shopId: t.shop.id, shopProductId: t.shopProduct.id, skuId: t.sku.id, shopVariationId: `var-otc-${t.shop.id}`, price: 499 },
  });
  const rx = await t.db.shopSku.create({
    data: { shopId: t.shop.id, shopProductId: t.rxShopProduct.id, skuId: t.rxSku.id, shopVariationId: `var-rx-${t.shop.id}`, price: 2999 },
  });
  const rxPharmacySku = await t.db.pharmacySku.create({ data: { pharmacyId: t.pharmacy.id, skuId: t.rxSku.id, externalId: "A-RX", price: 2500, stock: 20 } });
  return { otcReference: otc.shopVariationId!, rxReference: rx.shopVariationId!, rxPharmacySku };
}

export const address = {
  first_name: "Erika",
  last_name: "Mustermann",
  street: "Hauptstraße",
  house_number: "5",
  zip_code: "10115",
  city: "Berlin",
  country: "DE",
};

export function item(skuReference: string, overrides: Record<string, unknown> = {}) {
  return {
    external_id: `item-${randomUUID().slice(0, 8)}`,
    sku_reference: skuReference,
    quantity: 1,
    total_paid: { amount: 499, currency: "EUR" },
    ...overrides,
  };
}

export function orderBody(t: Tenant, items: Record<string, unknown>[], overrides: Record<string, unknown> = {}) {
  return {
    shop_identifier: t.shop.identifier,
    external_id: `order-${randomUUID()}`,
    customer: { id: "customer-1", email: "erika@example.com" },
    delivery_address: address,
    fulfillments: [{ external_id: "f-1", items }],
    ...overrides,
  };
}

export async function placeOrder(t: Tenant, body: Record<string, unknown>) {
  return post("/v1/management/orders", { key: t.keys.management, body });
}
