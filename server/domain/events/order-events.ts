import type { Prisma } from "@/server/db/client";
import { outboxInsertSql } from "./outbox";

/**
 * The order events of organisation subscriptions (docs/decisions/webhooks.md#order-and-prescription-events).
 *
 * order_created: written by order intake in the statement that writes the order (every intake path:
 * Management API, Public checkouts, Shopify orders reach createOrder), so the event exists exactly
 * when the order does and a refused duplicate writes neither.
 *
 * order_updated: written by the database whenever an order's status changes (trigger
 * "Order_status_event", migration order_status_events), with `{from_status, to_status}`; the
 * status is written in several places and a trigger cannot be forgotten by the next one.
 */

/** What order_updated records when it happens: the status before and after the committing transaction. */
export type OrderStatusChange = { from_status: string; to_status: string };

/** The INSERT of order_created, as a CTE of the statement that inserts the order. */
export function orderCreatedEventSql(organisationId: string, orderId: string): Prisma.Sql {
  return outboxInsertSql({ type: "order_created", organisationId, subjectId: orderId });
}
