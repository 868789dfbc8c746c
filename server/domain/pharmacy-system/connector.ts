import type { CARRIERS } from "@/server/domain/pharmacy-orders/complete";

/**
 * What a pharmacy's own system says about a pharmacy order (the spec's "automatic status check of
 * the pharmacy system"):
 * - shipped, completed: the pharmacy has dispatched or handed over the order → we complete it;
 * - cancelled: the pharmacy cancelled it → we cancel it;
 * - open: the system knows the order and it is still in work → nothing to do;
 * - unknown: no usable answer (error status, garbage, timeout, unreachable) → nothing to do;
 * - blocked: not asked, the system's address is refused by the outgoing-request guard (its host
 *   resolves to a loopback, private or link-local address) → nothing to do.
 */
export type PharmacySystemStatus = "open" | "shipped" | "completed" | "cancelled" | "unknown" | "blocked";

export type PharmacySystemReport = {
  status: PharmacySystemStatus;
  /** Shipment tracking URL, when the system reports one (http or https). */
  trackingUrl?: string | null;
  carrier?: (typeof CARRIERS)[number] | null;
};

/** The order as the connector sees it: our uid and name, and what we last knew of its status. */
export type CheckedPharmacyOrder = { uid: string; name: string; status: string; externalStatus: string };

/** A pharmacy system, asked for the status of one order at a time. Implementations never throw: failures are "unknown". */
export interface PharmacySystemConnector {
  readonly type: string;
  fetchStatus(order: CheckedPharmacyOrder): Promise<PharmacySystemReport>;
}

export const UNKNOWN: PharmacySystemReport = { status: "unknown" };
export const BLOCKED: PharmacySystemReport = { status: "blocked" };
