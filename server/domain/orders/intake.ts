/** The order intake command (Management API "Create an order"), in domain terms. */
export type Address = {
  first_name: string;
  last_name: string;
  street: string;
  house_number: string;
  zip_code: string;
  city: string;
  country: string;
  additional_address?: string | null;
  province?: string | null;
};

export type Money = { amount: number; currency: string };

/** Order priority: an integer, higher is more urgent, 0 no special priority (intake, order update, portal). */
export const ORDER_PRIORITY_MIN = -1000;
export const ORDER_PRIORITY_MAX = 1000;

export type ItemIntake = {
  externalId: string;
  skuReference: string;
  productReference?: string;
  quantity: number;
  totalPaid: Money;
  prescriptionUid?: string;
  prescriptionReference?: string;
  anamnesisUid?: string;
  fulfillmentMethod?: string;
  /** The skip-validation flags as sent on the item and on its fulfillment (resolved with the order's additional details). */
  skipValidationLevels?: { item?: unknown; group?: unknown };
};

export type FulfillmentIntake = {
  externalId: string;
  items: ItemIntake[];
  destinationPharmacyUid?: string;
  locationId?: string;
  prescriptions?: { id: string; pdfBase64: string }[];
};

export type OrderIntake = {
  shopIdentifier: string;
  externalId: string;
  name?: string;
  customer: { id: string; email?: string };
  deliveryAddress: Address;
  invoiceAddress?: Address;
  shippingCost?: Money;
  shippingMethods?: string[];
  priority?: number;
  onHold?: boolean;
  holdComment?: string;
  doctorUid?: string;
  pharmacyUid?: string;
  pharmacyEmail?: string;
  referralScanUid?: string;
  /** Order-level additional details (free object; may carry the skip-validation flags). */
  additionalDetails?: Record<string, unknown>;
  fulfillments: FulfillmentIntake[];
};
