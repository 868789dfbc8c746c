import type { OpenedCheckoutResult } from "@/server/domain/checkouts/open-checkout";

/** A created checkout (docs/spec-gaps.md#issue-14-checkouts): draft_order_id is the id a reservation also had. */
export function presentCheckout(checkout: OpenedCheckoutResult & { anamnesisId?: string }) {
  return {
    draft_order_id: checkout.legacyId,
    checkout_type: checkout.checkoutType,
    status: "open",
    checkout_url: checkout.checkoutUrl,
    expires_at: checkout.expiresAt,
    ...(checkout.anamnesisId ? { anamnesis_uid: checkout.anamnesisId } : {}),
  };
}
