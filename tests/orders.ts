/**
 * The order builder for tests, on top of a tenant from tests/fixtures.ts. An order is described once,
 * as a Management API body (`orderBody`, `routedOrderBody`, `fulfillmentAt`, `item`), and placed
 * either over HTTP (`placeOrder`, for route tests) or through the domain command (`createTestOrder`,
 * which calls createOrder with the intake the route makes of the same body: `orderIntake`).
 * Shop SKUs to order go through the catalogue command createShopSku (`offerSku`, `withShopSkus`).
 */
import { randomUUID } from "node:crypto";
import { createOrderSchema, toOrderIntake } from "@/server/api/management/order-intake.schemas";
import { createShopSku } from "@/server/domain/catalogue/shop-skus";
import { createOrder } from "@/server/domain/orders/create-order";
import type { OrderIntake } from "@/server/domain/orders/intake";
import type { Tenant } from "./fixtures";
import { post } from "./http";

export const eur = (amount: number) => ({ amount, currency: "EUR" });

/** A shop SKU of the tenant's shop (createShopSku): `shopVariationId` as sku_reference of `skuId` (default the OTC SKU) at `price`. */
export function offerSku(t: Tenant, offer: { shopVariationId: string; price: number; skuId?: string; shopProductId?: string }) {
  return createShopSku(t.organisation.id, {
    shopId: t.shop.id,
    shopProductId: offer.shopProductId ?? t.shopProduct.id,
    skuId: offer.skuId ?? t.sku.id,
    shopVariationId: offer.shopVariationId,
    price: offer.price,
  }, { type: "SYSTEM" });
}

/**
 * Shop SKUs so intake can resolve sku_reference to the tenant's SKUs (OTC and Rx), and Rx stock at
 * pharmacy A (inserted directly: the product has no command that creates a pharmacy SKU).
 */
export async function withShopSkus(t: Tenant) {
  const otc = await offerSku(t, { shopVariationId: `var-otc-${t.shop.id}`, price: 499 });
  const rx = await offerSku(t, { shopVariationId: `var-rx-${t.shop.id}`, price: 2999, skuId: t.rxSku.id, shopProductId: t.rxShopProduct.id });
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
    total_paid: eur(499),
    ...overrides,
  };
}

/** A fulfillment of `items` sent to `pharmacyId` (destination_pharmacy_uid). */
export function fulfillmentAt(externalId: string, pharmacyId: string, items: Record<string, unknown>[]) {
  return { external_id: externalId, destination_pharmacy_uid: pharmacyId, items };
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

/** Order `externalId` of customer `customer-<externalId>`: one fulfillment `<externalId>-f1` of `items`, sent to `pharmacyId`. */
export function routedOrderBody(t: Tenant, externalId: string, pharmacyId: string, items: Record<string, unknown>[], overrides: Record<string, unknown> = {}) {
  return orderBody(t, [], {
    external_id: externalId,
    customer: { id: `customer-${externalId}` },
    fulfillments: [fulfillmentAt(`${externalId}-f1`, pharmacyId, items)],
    ...overrides,
  });
}

/** The domain's OrderIntake of a body, through the schema and mapping POST /v1/management/orders uses. */
function orderIntake(body: Record<string, unknown>): OrderIntake {
  return toOrderIntake(createOrderSchema.parse(body));
}

/** POST /v1/management/orders with the tenant's management key. */
export async function placeOrder(t: Tenant, body: Record<string, unknown>) {
  return post("/v1/management/orders", { key: t.keys.management, body });
}

type TestOrder = { orderId: string; pharmacyOrders: { id: string; name: string }[] };

/** The order through the domain command createOrder, by the system; its pharmacy orders by fulfillment external_id. */
export async function createTestOrder(t: Tenant, body: Record<string, unknown>): Promise<TestOrder> {
  const { id: orderId } = await createOrder(t.organisation.id, orderIntake(body), { type: "SYSTEM" });
  const pharmacyOrders = await t.db.pharmacyOrder.findMany({
    where: { orderId },
    orderBy: { fulfillment: { externalId: "asc" } },
    select: { id: true, name: true },
  });
  return { orderId, pharmacyOrders };
}
