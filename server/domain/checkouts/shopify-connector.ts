import { database } from "@/server/db/client";
import { UpstreamError } from "@/server/domain/errors";
import { openShopifyConnection } from "@/server/domain/shopify/connection";
import { enqueueShopifyDraftDeletion, saveShopifyDraftOrder, shopPlatformError, type ShopifyDraft } from "@/server/domain/shopify/draft-orders";
import { NOT_A_SHOPIFY_VARIANT, variantGid } from "@/server/domain/shopify/variants";
import { DRAFT_ORDER_STATUS } from "@/server/domain/storefront/statuses";
import type { CheckoutRequest } from "./checkout-request";
import type { CheckoutConnector } from "./connector";

/**
 * Checkouts of a shop connected to Shopify (docs/decisions/intake.md#shopify): the checkout is a
 * Shopify draft order, made (draftOrderCreate) or, for a checkout that consumed a reservation,
 * updated (draftOrderUpdate of the reservation's draft) once our rows are committed: the lines as
 * the shop SKUs' variants at the checkout's prices, the buyer's e-mail, the addresses, the delivery
 * as the shipping line, and the custom attributes rx_draft_order_id (our draft, the marker the
 * order webhook completes it by) and prepaid=true/false. The patient pays the draft's invoice
 * (checkout_url = its invoiceUrl; none for draft_order_without_checkout_request); Shopify's
 * orders/paid webhook then completes the checkout (shopify/order-webhook.ts). When Shopify fails,
 * the checkout is left failed, a reservation's draft is deleted by a background task (its hold
 * ended with the consumption), and the caller gets the 502/503.
 */
export const shopifyCheckoutConnector: CheckoutConnector = {
  type: "shopify",
  lineProblem: (shopSku) => (shopSku.shopVariationId && variantGid(shopSku.shopVariationId) ? null : NOT_A_SHOPIFY_VARIANT),
  // Nothing local: the Shopify draft is made after commit (publishCheckout).
  createCheckout: async () => ({ checkoutUrl: null }),
  async publishCheckout(checkout) {
    const db = await database();
    const draft = await db.draftOrder.findUniqueOrThrow({
      where: { id: checkout.draftOrderId },
      select: { id: true, shopId: true, request: true, shopifyDraftOrderGid: true, lines: { select: { quantity: true, unitPrice: true, shopSkuId: true } } },
    });
    const shopSkus = await db.shopSku.findMany({
      where: { id: { in: draft.lines.flatMap((l) => (l.shopSkuId ? [l.shopSkuId] : [])) } },
      select: { id: true, shopVariationId: true },
    });
    const variantOf = new Map(shopSkus.map((s) => [s.id, s.shopVariationId ? variantGid(s.shopVariationId) : null]));
    const request = draft.request as CheckoutRequest;
    const connection = await openShopifyConnection(draft.shopId);

    let saved: ShopifyDraft;
    try {
      if (!connection) throw new UpstreamError("The shop is no longer connected to Shopify.", false);
      saved = await saveShopifyDraftOrder(
        connection,
        {
          draftOrderId: draft.id,
          lines: draft.lines.map((l) => ({ variantGid: variantOf.get(l.shopSkuId ?? "")!, quantity: l.quantity, unitPrice: l.unitPrice })),
          email: request.buyerIdentity?.email ?? null,
          shippingAddress: request.shippingAddress,
          billingAddress: request.billingAddress,
          shippingLine: request.delivery ? { title: request.delivery.deliveryType, price: request.delivery.deliveryPrice } : null,
          attributes: { prepaid: String(request.prepaid) },
        },
        draft.shopifyDraftOrderGid,
      );
    } catch (error) {
      await db.$transaction(async (tx) => {
        await tx.draftOrder.updateMany({ where: { id: draft.id, status: DRAFT_ORDER_STATUS.open }, data: { status: DRAFT_ORDER_STATUS.failed } });
        if (draft.shopifyDraftOrderGid) await enqueueShopifyDraftDeletion(tx, { id: draft.id, shopId: draft.shopId, shopifyDraftOrderGid: draft.shopifyDraftOrderGid });
      });
      throw shopPlatformError(error, "Shopify could not take the checkout");
    }
    if (!draft.shopifyDraftOrderGid) await db.draftOrder.update({ where: { id: draft.id }, data: { shopifyDraftOrderGid: saved.gid } });
    return {
      checkoutUrl: checkout.checkoutType === "draft_order_without_checkout_request" ? null : saved.invoiceUrl,
      draftOrderId: saved.legacyId,
    };
  },
};
