/**
 * The admin home's counts: what needs someone's attention in the organisation. Each is one COUNT
 * over an index of its table (no rows loaded), and each counts exactly what the list it links to
 * shows, so a number and its list never disagree.
 */
import { database } from "@/server/db/client";
import { LOW_STOCK_THRESHOLD } from "@/server/domain/catalogue/stock-threshold";
import { countOrders } from "@/server/domain/orders/queries";
import { ORDER_STATUS } from "@/server/domain/orders/statuses";
import { countOpenIssueThreads } from "@/server/domain/pharmacy-orders/issue-thread-queries";


/** How far back failed webhook deliveries count (as on the pharmacy portal's home). */
export const FAILED_DELIVERY_DAYS = 7;

/** Open issue threads of the organisation's pharmacy orders. */
export const countOpenThreads = (organisationId: string) => countOpenIssueThreads(organisationId);

/** Orders whose prescription request waits for a doctor (order status "waiting for doctor"). */
export const countOrdersWaitingForDoctor = (organisationId: string) => countOrders(organisationId, { status: ORDER_STATUS.waitingForDoctor });

/** Orders with an open fulfillment that should be at a pharmacy and has no pharmacy order. */
export const countOrdersWithoutPharmacy = (organisationId: string) => countOrders(organisationId, { withoutPharmacy: true });

/** Webhook deliveries of the organisation that failed for good (state FAILED) and were created since `since`. */
export async function countFailedDeliveries(organisationId: string, since: Date): Promise<number> {
  const db = await database();
  return db.webhookDelivery.count({ where: { organisationId, state: "FAILED", createdAt: { gte: since } } });
}

/** Pharmacies of the organisation with at least one live pharmacy SKU at or below LOW_STOCK_THRESHOLD. */
export async function countPharmaciesRunningOut(organisationId: string): Promise<number> {
  const db = await database();
  return db.pharmacy.count({
    where: { organisationId, pharmacySkus: { some: { deletedAt: null, stock: { lte: LOW_STOCK_THRESHOLD } } } },
  });
}
