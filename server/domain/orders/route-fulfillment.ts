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
  const rows = await tx.pharmacySku.findMany({
    where: { pharmacyId, skuId: { in: skuIds }, deletedAt: null },
    select: { id: true, skuId: true },
  });
  return new Map(rows.map((r) => [r.skuId, r.id]));
}

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
  const offers = await tx.pharmacySku.findMany({
    where: { skuId: { in: skuIds }, deletedAt: null, pharmacy: { organisationId } },
    select: {
      id: true,
      skuId: true,
      pharmacyId: true,
      price: true,
      stock: true,
      sku: { select: { digital: true } },
      pharmacy: { select: { hiddenSkuType: true } },
    },
  });
  const byPharmacy = new Map<string, { price: number; stock: number; skus: Map<string, string> }>();
  for (const offer of offers) {
    const hidden =
      (offer.pharmacy.hiddenSkuType === "DIGITAL" && offer.sku.digital) ||
      (offer.pharmacy.hiddenSkuType === "PHYSICAL" && !offer.sku.digital);
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
