/** Order status values (the product's order lifecycle; docs/decisions/intake.md#orders-fulfilment-and-pharmacy-orders, "Order status values"). */
export const ORDER_STATUS = {
  started: "started",
  paused: "paused",
  waitingForDoctor: "waiting for doctor",
  waitingForPharmacy: "waiting for pharmacy",
  completed: "completed",
  cancelled: "cancelled",
  /** Every fulfillment is cancelled and a prescription of the order was declined. */
  prescriptionDeclined: "prescription declined",
  /** An open fulfillment has no pharmacy: none carries every item with enough stock, or its pharmacy gave it back and no other could take it. */
  pharmacyNotFound: "pharmacy not found",
} as const;
