import type { CheckoutType } from "./connector";

/**
 * A checkout as the Public API accepted it (G26's fields, in domain terms). Everything but the
 * lines and the prescriptions is kept as sent in DraftOrder.request, for the order made when the
 * checkout is completed and for the hosted page (docs/decisions/intake.md#checkouts).
 */
export type CheckoutAddress = {
  firstName: string;
  lastName: string;
  address1: string;
  city: string;
  province?: string | null;
  countryCode: string;
  zip: string;
};

export const GENDERS = ["male", "female", "divers"] as const;

export type CheckoutRequest = {
  checkoutType: CheckoutType;
  prepaid: boolean;
  externalOrderId: string | null;
  /** The shop customer the checkout (and its patient) belongs to: shop_customer_id, else buyerIdentity.email, else a guest of this checkout. */
  shopCustomerId: string;
  patientData: { firstName: string; lastName: string; dateOfBirth: number; gender: (typeof GENDERS)[number] };
  /** Without customerAccessToken: a secret of the shop platform, never stored (the built-in connector has no customer accounts). */
  buyerIdentity: { email?: string; phone?: string; countryCode?: string } | null;
  delivery: { deliveryType: string; deliveryPrice: number } | null;
  transaction: { transactionId: string; transactionAmount: number } | null;
  billingAddress: CheckoutAddress | null;
  shippingAddress: CheckoutAddress | null;
  /** Unix seconds: the checkout cannot be completed afterwards. */
  expiresAt: number;
};

export type CheckoutInput = Omit<CheckoutRequest, "expiresAt" | "shopCustomerId"> & {
  shopIdentifier: string;
  shopCustomerId?: string;
  reservedDraftOrderId?: string;
  lines: { skuUid: string; quantity: number; prescriptionId?: string }[];
};

/** How long a checkout can be completed: a week, as a patient may take a few days to pay. */
export const CHECKOUT_LIFETIME_SECONDS = 7 * 24 * 3600;

/** Prices of the shop (ShopSku.price) are euro cents (G26: currency EUR). */
export const CHECKOUT_CURRENCY = "EUR";

/** The checkout has passed its expires_at. */
export const isCheckoutExpired = (request: CheckoutRequest, now = new Date()) => request.expiresAt * 1000 <= now.getTime();
