import { createHash, randomBytes } from "node:crypto";
import { config } from "@/server/config";
import type { CheckoutConnector } from "./connector";

/** A checkout token: 256 random bits, URL-safe. Only its hash is stored (DraftOrder.checkoutTokenHash). */
const newCheckoutToken = () => randomBytes(32).toString("base64url");

export const checkoutTokenHash = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

export const checkoutUrl = (token: string) => `${config().baseUrl.replace(/\/+$/, "")}/checkout/${token}`;

/**
 * The built-in shop platform: the draft order stored here is the platform's draft, and the
 * patient completes it on this app's hosted page /checkout/{token} (app/checkout/[token]/page.tsx).
 * A draft_order_without_checkout_request gets no token: no checkout request goes to the patient
 * (docs/decisions/intake.md#checkouts).
 */
export const builtInCheckoutConnector: CheckoutConnector = {
  type: "built_in",
  async createCheckout(tx, checkout) {
    if (checkout.checkoutType === "draft_order_without_checkout_request") return { checkoutUrl: null };
    const token = newCheckoutToken();
    await tx.draftOrder.update({ where: { id: checkout.draftOrderId }, data: { checkoutTokenHash: checkoutTokenHash(token) } });
    return { checkoutUrl: checkoutUrl(token) };
  },
};
