import type { Tx } from "@/server/db/client";
import { enqueueTask } from "@/server/domain/tasks/enqueue";

// Below orders (scripts/architecture.test.ts): pharmacy orders and the catalogue queue the routing task that orders/route-waiting.ts runs.
/** The background task that routes an organisation's waiting fulfillments (server/jobs/task-handlers.ts). */
export const ROUTE_WAITING_TASK = "orders.route_waiting";

/**
 * Stock arrived at one of the organisation's pharmacies (a stock update, a new pharmacy SKU, stock
 * returned by a cancellation), in the transaction that wrote it: when a fulfillment of the
 * organisation waits for a pharmacy ("pharmacy not found"), the routing task is queued, to run
 * after the commit. One indexed read (the partial index of Fulfillment.needsPharmacy) otherwise.
 */
export async function routeWaitingWhenStockArrives(tx: Tx, organisationId: string): Promise<void> {
  const waiting = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM "Fulfillment" f JOIN "Order" o ON o."id" = f."orderId"
     WHERE f."needsPharmacy" AND o."organisationId" = ${organisationId} LIMIT 1`;
  if (waiting.length > 0) await enqueueTask(tx, ROUTE_WAITING_TASK, { organisationId });
}
