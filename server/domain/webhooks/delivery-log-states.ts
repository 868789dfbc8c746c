/**
 * Where a delivery stands, in the logs' words: pending (no attempt recorded yet), retrying (pending,
 * after at least one failed attempt), delivered, failed (dropped: a permanent failure). Vocabulary
 * only (imports nothing): the portal's filters use it too.
 */
export const DELIVERY_LOG_STATES = ["pending", "retrying", "delivered", "failed"] as const;
export type DeliveryLogState = (typeof DELIVERY_LOG_STATES)[number];

export const DELIVERY_LOG_MAX_LIMIT = 200;
