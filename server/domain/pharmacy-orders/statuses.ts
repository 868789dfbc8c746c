/** Pharmacy order status values, exactly as the spec writes them. */
export const PHARMACY_ORDER_STATUS = {
  waitingForPharmacy: "waiting for pharmacy",
  pendingReview: "pending review",
  onHold: "on-hold",
  inProgress: "in-progress",
  readyForPickup: "ready_for_pickup",
  completed: "completed",
  cancelled: "cancelled",
} as const;

export type PharmacyOrderStatus = (typeof PHARMACY_ORDER_STATUS)[keyof typeof PHARMACY_ORDER_STATUS];

export const PHARMACY_ORDER_STATUSES = Object.values(PHARMACY_ORDER_STATUS);

export type SettablePharmacyOrderStatus = Exclude<PharmacyOrderStatus, "completed">;

/** The statuses PATCH …/status accepts: every status but completed, which only complete_order sets. */
export const SETTABLE_PHARMACY_ORDER_STATUSES = PHARMACY_ORDER_STATUSES.filter(
  (s): s is SettablePharmacyOrderStatus => s !== PHARMACY_ORDER_STATUS.completed,
) as [SettablePharmacyOrderStatus, ...SettablePharmacyOrderStatus[]];

/** Statuses an order does not leave through its normal course: it is no longer in a pharmacy's queue. */
export const FINAL_PHARMACY_ORDER_STATUSES = [PHARMACY_ORDER_STATUS.cancelled, PHARMACY_ORDER_STATUS.completed] as const;

export function isLivePharmacyOrderStatus(status: string): boolean {
  return !(FINAL_PHARMACY_ORDER_STATUSES as readonly string[]).includes(status);
}

/** How a pharmacy order reaches the patient (PharmacyOrder.deliveryType; new orders: shipping). */
export const DELIVERY_TYPES = ["shipping", "pickup"] as const;
export type DeliveryType = (typeof DELIVERY_TYPES)[number];
