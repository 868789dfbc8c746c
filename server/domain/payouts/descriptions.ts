/**
 * The routing description each projected payout component is stored with (vocabulary only). The REST
 * API's routing_description carries it as written (English, the spec's wire field); the portals word
 * a row whose description is its component's one in the reader's language, any other as written.
 */
export const PAYOUT_DESCRIPTIONS = {
  item_rest: "Items at the pharmacy's price",
  item_markup: "Amount paid above the pharmacy's price",
  shipping: "Shipping costs",
} as const;

/** Why a routed payout was flagged (Payout.reviewReason); the portals word it in the reader's language. */
export const CANCELLED_AFTER_COMPLETION_REVIEW = "Pharmacy order cancelled after completion";
