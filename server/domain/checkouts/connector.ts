import type { Tx } from "@/server/db/client";

/**
 * The shop platform behind checkouts (spec "Public API": prescription and treatment checkouts).
 * Our side of a checkout is always a DraftOrder row (lines, stored prescriptions, the accepted
 * request); the connector makes the platform's side of it and hands back where the patient
 * completes it. When the patient completes it, the platform's signal (our hosted page, Shopify's
 * orders/create webhook) calls completeCheckout (./complete-checkout.ts), which makes the order
 * through order intake. What a Shopify connector would implement: docs/spec-gaps.md#issue-14-checkouts.
 */

/** G26's checkout types. */
export const CHECKOUT_TYPES = ["checkout_link", "draft_order", "draft_order_without_checkout_request"] as const;
export type CheckoutType = (typeof CHECKOUT_TYPES)[number];

/** The checkout as the connector publishes it, after our rows are written (same transaction). */
export type OpenedCheckout = {
  draftOrderId: string;
  legacyId: bigint;
  shopId: string;
  checkoutType: CheckoutType;
  prepaid: boolean;
};

/** Where the patient completes the checkout: null when the type asks for no checkout request. */
export type PublishedCheckout = { checkoutUrl: string | null };

export interface CheckoutConnector {
  readonly type: string;
  /** Publishes a new checkout (or a reservation turned checkout) on the shop platform, inside the command's transaction. */
  createCheckout(tx: Tx, checkout: OpenedCheckout): Promise<PublishedCheckout>;
}
