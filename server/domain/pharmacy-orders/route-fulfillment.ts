import type { Tx } from "@/server/db/client";

export type RoutedPharmacy = { pharmacyId: string; pharmacySkuBySku: Map<string, string> };

type Need = { skuId: string; quantity: number };

/** Quantities per SKU: one fulfillment may hold several items of the same SKU. */
function totalNeeds(items: Need[]): Map<string, number> {
  const needs = new Map<string, number>();
  for (const item of items) needs.set(item.skuId, (needs.get(item.skuId) ?? 0) + item.quantity);
  return needs;
}

/** The pharmacy's live pharmacy SKUs for these SKUs, for stock reduction at completion. */
async function pharmacySkusAt(tx: Tx, pharmacyId: string, skuIds: string[]): Promise<Map<string, string>> {
  const rows = await tx.$queryRaw<{ id: string; skuId: string }[]>`
    SELECT "id", "skuId" FROM "PharmacySku"
     WHERE "pharmacyId" = ${pharmacyId} AND "skuId" = ANY(${skuIds}::text[]) AND "deletedAt" IS NULL`;
  return new Map(rows.map((r) => [r.skuId, r.id]));
}

/** A live pharmacy SKU of the organisation for one of the needed SKUs, with what routing weighs. */
type Offer = { id: string; skuId: string; pharmacyId: string; price: number; stock: number; digital: boolean; hiddenSkuType: string };

/**
 * Chooses the pharmacy of a fulfillment. An explicit pharmacy (destination_pharmacy_uid,
 * location_id or the order's pharmacy_uid, resolved by the caller) is taken as it is. Otherwise
 * automatic selection among the organisation's pharmacies that carry every SKU of the fulfillment
 * with enough stock (and do not hide its type): the lowest total price, then the most stock of
 * those SKUs, then the lowest pharmacy uid, so the choice is deterministic. Null when none can.
 */
export async function routeFulfillmentToPharmacy(
  tx: Tx,
  organisationId: string,
  items: Need[],
  explicitPharmacyId: string | null,
): Promise<RoutedPharmacy | null> {
  const needs = totalNeeds(items);
  const skuIds = [...needs.keys()];
  if (explicitPharmacyId) {
    return { pharmacyId: explicitPharmacyId, pharmacySkuBySku: await pharmacySkusAt(tx, explicitPharmacyId, skuIds) };
  }
  const offers = await tx.$queryRaw<Offer[]>`
    SELECT ps."id", ps."skuId", ps."pharmacyId", ps."price", ps."stock", s."digital", ph."hiddenSkuType"::text AS "hiddenSkuType"
      FROM "PharmacySku" ps
      JOIN "Pharmacy" ph ON ph."id" = ps."pharmacyId"
      JOIN "Sku" s ON s."id" = ps."skuId"
     WHERE ps."skuId" = ANY(${skuIds}::text[]) AND ps."deletedAt" IS NULL AND ph."organisationId" = ${organisationId}`;
  const byPharmacy = new Map<string, { price: number; stock: number; skus: Map<string, string> }>();
  for (const offer of offers) {
    const hidden =
      (offer.hiddenSkuType === "DIGITAL" && offer.digital) || (offer.hiddenSkuType === "PHYSICAL" && !offer.digital);
    const needed = needs.get(offer.skuId)!;
    if (hidden || offer.stock < needed) continue;
    const entry = byPharmacy.get(offer.pharmacyId) ?? { price: 0, stock: 0, skus: new Map<string, string>() };
    entry.price += offer.price * needed;
    entry.stock += offer.stock;
    entry.skus.set(offer.skuId, offer.id);
    byPharmacy.set(offer.pharmacyId, entry);
  }
  const candidates = [...byPharmacy.entries()].filter(([, e]) => e.skus.size === skuIds.length);
  candidates.sort(([idA, a], [idB, b]) => a.price - b.price || b.stock - a.stock || (idA < idB ? -1 : 1));
  const best = candidates[0];
  return best ? { pharmacyId: best[0], pharmacySkuBySku: best[1].skus } : null;
}
