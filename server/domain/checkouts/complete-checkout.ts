import { errorText } from "@/i18n/error-text";
import { database, type Tx } from "@/server/db/client";
import { ConflictError, NotFoundError } from "@/server/domain/errors";
import { createOrder } from "@/server/domain/orders/create-order";
import type { Address, OrderIntake } from "@/server/domain/orders/intake";
import { publicDraftOrderId } from "@/server/domain/storefront/draft-order-id";
import { readVerified } from "@/server/storage/prescription-files";
import { draftIdOfToken } from "./queries";
import { CHECKOUT_CURRENCY, isCheckoutExpired, type CheckoutAddress, type CheckoutRequest } from "./checkout-request";

export type CompletedCheckout = { orderId: string; alreadyCompleted: boolean };

const checkoutClosed = () => new ConflictError(errorText("checkouts.closed"), { code: "checkout_closed" });

/** The order's external_id: the caller's external_order_id, else checkout-{draft_order_id} (the id the checkout answered with). */
export const checkoutOrderExternalId = (draft: { legacyId: bigint; shopifyDraftOrderGid: string | null }, request: CheckoutRequest) =>
  request.externalOrderId ?? `checkout-${publicDraftOrderId(draft)}`;

export type CompletionOptions = {
  /**
   * The patient paid on the shop platform (Shopify made an order of the draft): the checkout's
   * expires_at, which bounds the hosted page's confirmation, does not refuse a payment taken.
   */
  paidOnPlatform?: boolean;
  /** Runs in the order's transaction (the Shopify order's link to the order). */
  onOrder?: (tx: Tx, orderId: string) => Promise<void>;
};

/**
 * Completes an open checkout: the order is made through order intake (createOrder: references,
 * inline prescriptions validated again, routing, webhooks), and the draft is marked completed with
 * its order in the order's own transaction. Exactly once: of two confirmations at once, one makes
 * the order and the other finds it (the order's external_id is unique and the draft changes only
 * from open), so both answer with the same order. The built-in connector's page calls it; the
 * Shopify order webhook calls it for an order Shopify made of the checkout's draft.
 */
export async function completeCheckout(draftOrderId: string, options: CompletionOptions = {}): Promise<CompletedCheckout> {
  const db = await database();
  const draft = await db.draftOrder.findUnique({
    where: { id: draftOrderId },
    include: {
      shop: { select: { identifier: true } },
      lines: true,
      prescriptions: true,
    },
  });
  if (!draft || draft.kind === "RESERVATION") throw new NotFoundError();
  if (draft.status === "completed" && draft.orderId) return { orderId: draft.orderId, alreadyCompleted: true };
  const request = draft.request as CheckoutRequest;
  if (draft.status !== "open") throw checkoutClosed();
  if (!options.paidOnPlatform && isCheckoutExpired(request)) throw new ConflictError(errorText("checkouts.expired"), { code: "checkout_expired" });

  const shopSkus = await db.shopSku.findMany({
    where: { id: { in: draft.lines.flatMap((l) => (l.shopSkuId ? [l.shopSkuId] : [])) } },
    select: { id: true, shopVariationId: true, shopSku: true, shopProduct: { select: { externalId: true } } },
  });
  const shopSkuOf = new Map(shopSkus.map((s) => [s.id, s]));
  const deliveryType = request.delivery?.deliveryType;
  const intake: OrderIntake = {
    shopIdentifier: draft.shop.identifier,
    externalId: checkoutOrderExternalId(draft, request),
    customer: { id: draft.shopCustomerId!, ...(request.buyerIdentity?.email ? { email: request.buyerIdentity.email } : {}) },
    deliveryAddress: intakeAddress((request.shippingAddress ?? request.billingAddress)!),
    invoiceAddress: request.billingAddress ? intakeAddress(request.billingAddress) : undefined,
    shippingCost: request.delivery ? { amount: request.delivery.deliveryPrice, currency: CHECKOUT_CURRENCY } : undefined,
    shippingMethods: deliveryType ? [deliveryType] : undefined,
    // The shop order attributes of G26 (prepaid=true/false) and what the checkout knew.
    additionalDetails: {
      prepaid: String(request.prepaid),
      checkout: {
        draft_order_id: publicDraftOrderId(draft),
        checkout_type: request.checkoutType,
        transaction: request.transaction ? { transaction_id: request.transaction.transactionId, transaction_amount: request.transaction.transactionAmount } : null,
        patient_data: {
          first_name: request.patientData.firstName,
          last_name: request.patientData.lastName,
          date_of_birth: request.patientData.dateOfBirth,
          gender: request.patientData.gender,
        },
      },
    },
    fulfillments: [
      {
        externalId: "checkout",
        prescriptions: await Promise.all(
          draft.prescriptions.map(async (p) => ({ id: p.externalRef, pdfBase64: (await readVerified(p.fileKey, p.sha256)).toString("base64") })),
        ),
        items: draft.lines.map((line, i) => {
          // Named as intake names a shop SKU; one deleted since the checkout is refused by intake.
          const shopSku = line.shopSkuId ? shopSkuOf.get(line.shopSkuId) : undefined;
          return {
          externalId: `line-${i + 1}`,
          skuReference: shopSku?.shopVariationId ?? shopSku?.shopSku ?? "",
          productReference: shopSku?.shopProduct.externalId,
          quantity: line.quantity,
          totalPaid: { amount: (line.unitPrice ?? 0) * line.quantity, currency: CHECKOUT_CURRENCY },
          prescriptionReference: line.prescriptionRef ?? undefined,
          anamnesisUid: line.anamnesisId ?? undefined,
          fulfillmentMethod: deliveryType,
          };
        }),
      },
    ],
  };

  try {
    const { id: orderId } = await createOrder(draft.organisationId, intake, { type: "SYSTEM" }, async (tx, orderId) => {
      const changed = await tx.$executeRaw`
        UPDATE "DraftOrder" SET "status" = 'completed', "orderId" = ${orderId}, "completedAt" = now(), "updatedAt" = now()
         WHERE "id" = ${draft.id} AND "status" = 'open'`;
      if (changed !== 1) throw checkoutClosed();
      await options.onOrder?.(tx, orderId);
    });
    return { orderId, alreadyCompleted: false };
  } catch (error) {
    if (error instanceof ConflictError) {
      const now = await db.draftOrder.findUnique({ where: { id: draft.id }, select: { status: true, orderId: true } });
      if (now?.status === "completed" && now.orderId) return { orderId: now.orderId, alreadyCompleted: true };
    }
    throw error;
  }
}

/** The hosted page's confirmation: the checkout its token opens (404 for an unknown token), completed. */
export async function completeCheckoutByToken(token: string): Promise<CompletedCheckout> {
  const draftOrderId = await draftIdOfToken(token);
  if (!draftOrderId) throw new NotFoundError();
  return completeCheckout(draftOrderId);
}

/**
 * G26's address as intake's: address1 is split before its last part holding a digit ("Hauptstraße
 * 5" → street "Hauptstraße", house number "5"); without one the house number stays blank.
 */
export function intakeAddress(address: CheckoutAddress): Address {
  const match = /^(.*\S)\s+(\S*\d\S*)$/.exec(address.address1.trim());
  return {
    first_name: address.firstName,
    last_name: address.lastName,
    street: match ? match[1] : address.address1.trim(),
    house_number: match ? match[2] : "",
    zip_code: address.zip,
    city: address.city,
    country: address.countryCode,
    province: address.province ?? null,
  };
}
