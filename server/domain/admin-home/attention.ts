/**
 * The admin home's counts: what needs someone's attention in the organisation. Each reads only the
 * rows that need attention (or a tally of them), never every order of the organisation, and each
 * counts exactly what the list it links to shows, so a number and its list never disagree. Each is
 * one prepared statement on the driver: the page asks all six on every visit, and a Prisma model
 * count costs the server about 1 ms of its thread where a driver statement costs a tenth of that.
 */
import { databaseDriver } from "@/server/db/client";
import { LOW_STOCK_THRESHOLD } from "@/server/domain/catalogue/stock-threshold";
import { countOrders } from "@/server/domain/orders/queries";
import { ORDER_STATUS } from "@/server/domain/orders/statuses";
import { countOpenIssueThreads } from "@/server/domain/pharmacy-orders/issue-thread-queries";
import { PRESCRIPTION_STATUS, storedSpellings } from "@/server/domain/prescriptions/statuses";

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

/** The stored spellings of "waiting for doctor" as SQL literals (constants of statuses.ts, no input). */
const WAITING_FOR_DOCTOR_SQL = storedSpellings([PRESCRIPTION_STATUS.waitingForDoctor]).map((s) => `'${s.replace(/'/g, "''")}'`).join(", ");

/**
 * Requests waiting for their doctor longer than that doctor's minutes to respond
 * (docs/decisions/admin-tool.md#the-doctors-section): assigned to a doctor who has minutes to respond,
 * still waiting for a doctor (not on hold: that waits for the patient; not approved: decided), since
 * they were created, and not of an order on hold. The Doctors list shows the same count per doctor
 * (listAdminDoctors' "overdue"), where the card links.
 */
export async function countOverdueRequests(organisationId: string, now = new Date()): Promise<number> {
  const [{ n }] = await (await databaseDriver()).query<{ n: number }>(
    `SELECT count(*)::int AS "n" FROM "Prescription" p
       JOIN "Doctor" d ON d."id" = p."doctorId"
       LEFT JOIN "Order" o ON o."id" = p."orderId"
      WHERE p."organisationId" = $1 AND p."deletedAt" IS NULL AND p."status" IN (${WAITING_FOR_DOCTOR_SQL})
        AND d."minutesToRespond" IS NOT NULL AND p."createdAt" < $2::timestamptz - make_interval(mins => d."minutesToRespond")
        AND NOT coalesce(o."onHold", false)`,
    [organisationId, now],
  );
  return n;
}
