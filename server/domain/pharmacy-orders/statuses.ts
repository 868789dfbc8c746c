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

/**
 * The statuses a status change may set on an order now in `status` — the rule applyStatusChange
 * enforces (change-status.ts): a cancelled order is final; the current status again changes nothing.
 */
export function statusChangesFrom(status: string): SettablePharmacyOrderStatus[] {
  if (status === PHARMACY_ORDER_STATUS.cancelled) return [];
  return SETTABLE_PHARMACY_ORDER_STATUSES.filter((s) => s !== status);
}

/** Whether an order now in `status` is live work the completion form and the details serve (completed again is a no-op; a cancelled one completes too, after a confirmation: completion-actions.tsx). */
export const canCompleteFrom = (status: string): boolean => isLivePharmacyOrderStatus(status);

/** Carriers a shipment may name (complete_order's tracking links and portal shipments alike). */
export const CARRIERS = ["DHL", "DPD", "UPS", "Hermes", "FedEx", "Other"] as const;
export type Carrier = (typeof CARRIERS)[number];

/** How a pharmacy order reaches the patient (PharmacyOrder.deliveryType; new orders: shipping). */
export const DELIVERY_TYPES = ["shipping", "pickup"] as const;
export type DeliveryType = (typeof DELIVERY_TYPES)[number];

/**
 * The delivery type a new pharmacy order takes from its items' `fulfillment_method` hints (spec:
 * "Hint that selects the delivery type"): pickup when every item says "pickup" (any case, spaces
 * trimmed); otherwise shipping, as before the hint was read — an unknown or missing hint, and items
 * that disagree, since shipping reaches the patient whatever they meant (docs/decisions/api.md#spec-fidelity-rules-1-3-5-6).
 */
export function deliveryTypeOfHints(hints: readonly (string | null | undefined)[]): DeliveryType {
  const pickup = hints.length > 0 && hints.every((hint) => hint?.trim().toLowerCase() === "pickup");
  return pickup ? "pickup" : "shipping";
}

/**
 * Labels of history entries that record a change other than a status change (fromStatus null,
 * toStatus the label, comment the detail), so that who changed a pharmacy order is kept with it.
 * The label is stored as it is here (a fixed key); the portals word it (status.historyNote.<key>).
 */
export const PHARMACY_ORDER_CHANGE = {
  orderUpdated: "order updated",
  shipmentAdded: "shipment added",
  deliveryTypeChanged: "delivery type changed",
  prescriptionAttached: "prescription attached",
  /** A cancellation after completion gave the stock the completion took back (cancel.ts). */
  stockReturned: "stock returned",
  /** A cancellation after completion left the stock taken: the goods had left the pharmacy (cancel.ts). */
  stockKept: "stock kept",
  /** A cancellation after completion flagged the order's routed payouts for review (cancel.ts). */
  payoutsFlaggedForReview: "payouts flagged for review",
} as const;
export type PharmacyOrderChange = (typeof PHARMACY_ORDER_CHANGE)[keyof typeof PHARMACY_ORDER_CHANGE];

/** The comment of an order's priority change on its pharmacy orders' "order updated" entries: fixed English, worded by the portals (pharmacyOrderSystemNote). */
export const priorityChangeComment = (from: number, to: number) => `priority ${from} → ${to}`;

/** The comments of a cancellation after completion (cancel.ts): fixed English, worded by the portals (pharmacyOrderSystemNote). */
export const CANCELLATION_COMMENT = {
  goodsReturned: (detail: string) => `Cancelled after completion; the goods came back. ${detail}`,
  /** One stock movement of goodsReturned's detail (joined by "; "). */
  stockMove: (name: string, delta: number, stockAfter: number) => `${name}: +${delta} (stock now ${stockAfter})`,
  goodsKept: "Cancelled after completion; the goods had left the pharmacy, so no stock was returned.",
  payoutsFlagged: (count: number, components: string) => `Cancelled after completion: ${count} routed payout${count === 1 ? "" : "s"} (${components}) need review.`,
} as const;

/** A pharmacy order history comment the system wrote, as a message key and values; a person's own comment is null. */
export function pharmacyOrderSystemNote(comment: string): { key: string; values: Record<string, string | number> } | null {
  const priority = /^priority (-?\d+) → (-?\d+)$/.exec(comment);
  if (priority) return { key: "priorityChanged", values: { from: priority[1], to: priority[2] } };
  if (comment === CANCELLATION_COMMENT.goodsKept) return { key: "goodsKept", values: {} };
  const returned = /^Cancelled after completion; the goods came back\. (.*)$/s.exec(comment);
  if (returned) return { key: "goodsReturned", values: { detail: returned[1] } };
  const flagged = /^Cancelled after completion: (\d+) routed payouts? \((.*)\) need review\.$/s.exec(comment);
  return flagged ? { key: "payoutsFlagged", values: { count: Number(flagged[1]), components: flagged[2] } } : null;
}

/** goodsReturned's detail with its English words ("stock now") put by `stockNow` (the page's language). */
export function wordStockMoves(detail: string, stockNow: (stock: string) => string): string {
  return detail.replace(/\(stock now (-?\d+)\)/g, (_, stock: string) => `(${stockNow(stock)})`);
}
