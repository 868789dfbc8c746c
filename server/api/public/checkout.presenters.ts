import { z } from "zod";
import type { OpenedCheckoutResult } from "@/server/domain/checkouts/open-checkout";
import { statusField, unixField } from "@/server/wire/format";

export const checkoutSchema = z.object({
  draft_order_id: z.string(),
  checkout_type: z.enum(["checkout_link", "draft_order", "draft_order_without_checkout_request"]),
  status: statusField(["open"]),
  checkout_url: z
    .string()
    .nullable()
    .describe("The hosted checkout page (a Shopify shop: its draft order's invoice URL); null for draft_order_without_checkout_request"),
  expires_at: unixField(),
  anamnesis_uid: z.string().optional().describe("Treatment checkouts: the stored questionnaire response"),
});

/** A created checkout (docs/decisions/intake.md#checkouts): draft_order_id is the id a reservation also had (a Shopify shop's: its Shopify draft's). */
export function presentCheckout(checkout: OpenedCheckoutResult & { anamnesisId?: string }): z.infer<typeof checkoutSchema> {
  return {
    draft_order_id: checkout.publicDraftOrderId,
    checkout_type: checkout.checkoutType,
    status: "open",
    checkout_url: checkout.checkoutUrl,
    expires_at: checkout.expiresAt,
    ...(checkout.anamnesisId ? { anamnesis_uid: checkout.anamnesisId } : {}),
  };
}
