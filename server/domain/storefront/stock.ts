import type { Db, Tx } from "@/server/db/client";
import { DRAFT_ORDER_STATUS } from "./statuses";

/**
 * The one rule of what a storefront can sell now: per SKU, the stock of the organisation's live
 * pharmacy SKUs at pharmacies that take orders for it (routing's rule: a pharmacy that hides the
 * SKU's type, digital or physical, does not count; negative stock counts as 0), summed over those
 * pharmacies, minus the quantities held by live reservations (status reserved AND holdExpiresAt
 * later than `now`, so an ended hold stops counting at once, before the expiry job marks it).
 * Never below 0. SKUs not of the organisation are absent from the map.
 *
 * Used by the products list, live stock and reservations (inside the reservation's transaction,
 * after it locked the SKU rows, so `db` may be a transaction).
 */
export async function availableQuantities(
  db: Db | Tx,
  organisationId: string,
  skuIds: readonly string[],
  now: Date = new Date(),
): Promise<Map<string, number>> {
  if (skuIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ skuId: string; available: number }[]>`
    SELECT s."id" AS "skuId", GREATEST(
             COALESCE((SELECT sum(GREATEST(ps."stock", 0))
                         FROM "PharmacySku" ps JOIN "Pharmacy" ph ON ph."id" = ps."pharmacyId"
                        WHERE ps."skuId" = s."id" AND ps."deletedAt" IS NULL AND ph."organisationId" = s."organisationId"
                          AND NOT (ph."hiddenSkuType"::text = 'DIGITAL' AND s."digital")
                          AND NOT (ph."hiddenSkuType"::text = 'PHYSICAL' AND NOT s."digital")), 0)
           - COALESCE((SELECT sum(l."quantity")
                         FROM "DraftOrderLine" l JOIN "DraftOrder" d ON d."id" = l."draftOrderId"
                        WHERE l."skuId" = s."id" AND d."organisationId" = s."organisationId"
                          AND d."status" = ${DRAFT_ORDER_STATUS.reserved} AND d."holdExpiresAt" > ${now}::timestamptz), 0),
           0)::int AS "available"
      FROM "Sku" s
     WHERE s."id" = ANY(${[...skuIds]}::text[]) AND s."organisationId" = ${organisationId}`;
  return new Map(rows.map((r) => [r.skuId, r.available]));
}

/** The availability buckets of the products list (G26), by available quantity; thresholds in docs/decisions/intake.md#storefront-products-stock-reservations-order-status. */
export type Availability = "High" | "Medium" | "Low" | "Unavailable";
export const AVAILABILITY_THRESHOLDS = { high: 50, medium: 10 } as const;

export function availabilityOf(available: number): Availability {
  if (available >= AVAILABILITY_THRESHOLDS.high) return "High";
  if (available >= AVAILABILITY_THRESHOLDS.medium) return "Medium";
  if (available > 0) return "Low";
  return "Unavailable";
}
