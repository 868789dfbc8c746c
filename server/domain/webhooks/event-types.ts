import { EVENT_TYPES, type EventType } from "@/server/domain/events/event-types";

export { EVENT_TYPES, type EventType };

// Vocabulary only (no database): the portal's forms import it.

/** Events about a pharmacy's orders and stock: pharmacy-scoped and organisation-level subscriptions. */
export const PHARMACY_EVENT_TYPES = ["pharmacy_order_created", "pharmacy_order_updated", "pharmacy_sku_stock_updated"] as const;

/** Envelope field payload_version: "1" is the only version. */
export const PAYLOAD_VERSION = "1";
