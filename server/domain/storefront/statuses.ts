/**
 * Draft order statuses (DraftOrder.status), of both checkout connectors. A reservation is
 * `reserved` while its lines hold stock (until holdExpiresAt), then `expired` (the expiry job), or
 * `open` once a checkout consumes it (the checkout locks the draft FOR UPDATE and sets `open`):
 * either way it no longer holds stock. docs/decisions/intake.md#storefront-products-stock-reservations-order-status
 */
export const DRAFT_ORDER_STATUS = {
  reserved: "reserved",
  expired: "expired",
  open: "open",
  /** A checkout its Shopify draft could not be made for: refused to the caller, never completable. */
  failed: "failed",
} as const;

/** How long a reservation holds its stock. */
export const RESERVATION_HOLD_MINUTES = 15;
