/**
 * The admin home's counts: what needs someone's attention in the organisation. Each reads only the
 * rows that need attention (or a tally of them), never every order of the organisation, and each
 * counts exactly what the list it links to shows, so a number and its list never disagree. Each is
 * one prepared statement on the driver: the page asks all five on every visit, and a Prisma model
 * count costs the server about 1 ms of its thread where a driver statement costs a tenth of that.
 */
import { databaseDriver } from "@/server/db/client";
import { LOW_STOCK_THRESHOLD } from "@/server/domain/catalogue/stock-threshold";
import { countOrders } from "@/server/domain/orders/queries";
import { ORDER_STATUS } from "@/server/domain/orders/statuses";
import { countOpenIssueThreads } from "@/server/domain/pharmacy-orders/issue-thread-queries";

/** How far back failed webhook deliveries count (as on the pharmacy portal's home). */
export const FAILED_DELIVERY_DAYS = 7;

/** Open issue threads of the organisation's pharmacy orders. */
export const countOpenThreads = (organisationId: string) => countOpenIssueThreads(organisationId);

/** Orders whose prescription request waits for a doctor (order status "waiting for doctor"; from the order tally). */
export const countOrdersWaitingForDoctor = (organisationId: string) => countOrders(organisationId, { status: ORDER_STATUS.waitingForDoctor });

/** Orders with an open fulfillment that should be at a pharmacy and has no pharmacy order (Fulfillment.needsPharmacy). */
export const countOrdersWithoutPharmacy = (organisationId: string) => countOrders(organisationId, { withoutPharmacy: true });

/** Webhook deliveries of the organisation that failed for good (state FAILED) and were created since `since` (a partial index of the failed ones). */
export async function countFailedDeliveries(organisationId: string, since: Date): Promise<number> {
  const [{ n }] = await (await databaseDriver()).query<{ n: number }>(
    `SELECT count(*)::int AS "n" FROM "WebhookDelivery" WHERE "organisationId" = $1 AND "state" = 'FAILED' AND "createdAt" >= $2`,
    [organisationId, since],
  );
  return n;
}

/** Pharmacies of the organisation with at least one live pharmacy SKU at or below LOW_STOCK_THRESHOLD. */
export async function countPharmaciesRunningOut(organisationId: string): Promise<number> {
  const [{ n }] = await (await databaseDriver()).query<{ n: number }>(
    `SELECT count(*)::int AS "n" FROM "Pharmacy" ph
      WHERE ph."organisationId" = $1
        AND EXISTS (SELECT 1 FROM "PharmacySku" s WHERE s."pharmacyId" = ph."id" AND s."deletedAt" IS NULL AND s."stock" <= $2)`,
    [organisationId, LOW_STOCK_THRESHOLD],
  );
  return n;
}
