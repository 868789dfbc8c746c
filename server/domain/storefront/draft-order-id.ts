import { legacyIdOfDraftGid, shopifyDraftGid } from "@/server/domain/shopify/draft-orders";

/**
 * The id the Public API names a draft order by (the answers' draft_order_id, the checkout's
 * reserved_draft_order_id): the legacy id of its Shopify draft when it has one (a shop connected to
 * Shopify), so an integrator finds it in the Shopify admin; else our own numeric legacyId (the
 * built-in connector). docs/decisions/intake.md#shopify.
 */
export function publicDraftOrderId(draft: { legacyId: bigint; shopifyDraftOrderGid: string | null }): string {
  return draft.shopifyDraftOrderGid ? legacyIdOfDraftGid(draft.shopifyDraftOrderGid) : draft.legacyId.toString();
}

/**
 * What a public id (digits) may name: a draft whose Shopify draft has this legacy id, or one
 * without a Shopify draft whose own legacyId it is (null when too long for ours).
 */
export function draftOrderIdForms(publicId: string): { shopifyDraftOrderGid: string; legacyId: bigint | null } {
  return { shopifyDraftOrderGid: shopifyDraftGid(publicId), legacyId: publicId.length <= 18 ? BigInt(publicId) : null };
}
