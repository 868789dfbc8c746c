/** Order status values (the product's order lifecycle; docs/spec-gaps.md#orders-fulfilment-and-pharmacy-orders, "Order status values"). */
export const ORDER_STATUS = {
  started: "started",
  paused: "paused",
  waitingForDoctor: "waiting for doctor",
  waitingForPharmacy: "waiting for pharmacy",
  completed: "completed",
  cancelled: "cancelled",
  /** Every fulfillment is cancelled and a prescription of the order was declined. */
  prescriptionDeclined: "prescription declined",
  /** The doctor is done, but a signed fulfillment found no pharmacy that carries every item with enough stock. */
  pharmacyNotFound: "pharmacy not found",
} as const;
