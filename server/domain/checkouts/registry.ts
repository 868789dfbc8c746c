import { isShopifyConnected } from "@/server/domain/shopify/connection";
import { builtInCheckoutConnector } from "./built-in-connector";
import type { CheckoutConnector } from "./connector";
import { shopifyCheckoutConnector } from "./shopify-connector";

/**
 * The connector of a shop's checkouts: Shopify's when the shop is connected to its Shopify store
 * (docs/decisions/intake.md#shopify), else the built-in one (the sandbox default).
 */
export async function checkoutConnectorFor(shopId: string): Promise<CheckoutConnector> {
  return (await isShopifyConnected(shopId)) ? shopifyCheckoutConnector : builtInCheckoutConnector;
}
