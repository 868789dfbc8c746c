import type { Tx } from "@/server/db/client";

/**
 * The shop platform behind checkouts (spec "Public API": prescription and treatment checkouts).
 * Our side of a checkout is always a DraftOrder row (lines, stored prescriptions, the accepted
 * request); the connector makes the platform's side of it and hands back where the patient
 * completes it. When the patient completes it, the platform's signal (our hosted page, Shopify's
 * orders/paid webhook) calls completeCheckout (./complete-checkout.ts), which makes the order
 * through order intake. The connectors: built-in-connector.ts, shopify-connector.ts (registry.ts
 * chooses). docs/decisions/intake.md#checkouts, docs/decisions/intake.md#shopify.
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

/**
 * Where the patient completes the checkout (null when the type asks for no checkout request), and
 * the id the answer names when it is the platform's (else ours: storefront/draft-order-id.ts).
 */
export type PublishedCheckout = { checkoutUrl: string | null; draftOrderId?: string };

export interface CheckoutConnector {
  readonly type: string;
  /** Why the platform cannot sell a line's shop SKU (null: it can); checked with the other line rules, before anything is written. */
  lineProblem?(shopSku: { shopVariationId: string | null }): string | null;
  /** Inside the checkout's transaction, after our rows are written: local work only, never a network call while its locks are held. */
  createCheckout(tx: Tx, checkout: OpenedCheckout): Promise<PublishedCheckout>;
  /**
   * After the transaction committed, for a platform reached over the network: publishes the
   * checkout there. When the platform fails, it leaves the checkout failed (never completable) and
   * throws an UpstreamError.
   */
  publishCheckout?(checkout: OpenedCheckout): Promise<PublishedCheckout>;
}
