import { builtInCheckoutConnector } from "./built-in-connector";
import type { CheckoutConnector } from "./connector";

/**
 * The connector of a shop's checkouts. Every shop uses the built-in one today: a shop has no
 * platform setting yet (a Shopify connector would be chosen here from such a setting).
 */
export function checkoutConnectorFor(_shop: { id: string }): CheckoutConnector {
  return builtInCheckoutConnector;
}
