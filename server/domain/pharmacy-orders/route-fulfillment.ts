import { Prisma, type RawTx } from "@/server/db/client";

export type RoutedPharmacy = { pharmacyId: string; pharmacySkuBySku: Map<string, string> };

type Need = { skuId: string; quantity: number };

/** Quantities per SKU: one fulfillment may hold several items of the same SKU. */
function totalNeeds(items: Need[]): Map<string, number> {
  const needs = new Map<string, number>();
  for (const item of items) needs.set(item.skuId, (needs.get(item.skuId) ?? 0) + item.quantity);
  return needs;
}

/** The pharmacy's live pharmacy SKUs for these SKUs, for stock reduction at completion. */
async function pharmacySkusAt(tx: RawTx, pharmacyId: string, skuIds: string[]): Promise<Map<string, string>> {
  const rows = await tx.$queryRaw<{ id: string; skuId: string }[]>`
    SELECT "id", "skuId" FROM "PharmacySku"
     WHERE "pharmacyId" = ${pharmacyId} AND "skuId" = ANY(${skuIds}::text[]) AND "deletedAt" IS NULL`;
  return new Map(rows.map((r) => [r.skuId, r.id]));
}

/** A live pharmacy SKU of the organisation for one of the needed SKUs, with what routing weighs. */
export type Offer = { id: string; skuId: string; pharmacyId: string; price: number; stock: number; digital: boolean; hiddenSkuType: string };

/**
 * The statement that reads the organisation's offers (Offer rows) of the SKUs `skuIds` selects (an
 * SQL query of one column), for pharmacyOffers and for a caller that reads them with other things
 * in one statement (order intake) and passes them on as `known`.
 */
export function pharmacyOffersSql(organisationId: string, skuIds: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    SELECT ps."id", ps."skuId", ps."pharmacyId", ps."price", ps."stock", s."digital", ph."hiddenSkuType"::text AS "hiddenSkuType"
      FROM "PharmacySku" ps
      JOIN "Pharmacy" ph ON ph."id" = ps."pharmacyId"
      JOIN "Sku" s ON s."id" = ps."skuId"
     WHERE ps."skuId" IN (${skuIds}) AND ps."deletedAt" IS NULL AND ph."organisationId" = ${organisationId}`;
}

/** What one pharmacy offers for a fulfillment's items, as routing weighs it. */
export type PharmacyOffer = {
  pharmacyId: string;
  /** Its live pharmacy SKUs for the needed SKUs, leaving out a type it hides (by SKU). */
  pharmacySkuBySku: Map<string, string>;
  /** It carries every needed SKU. */
  carriesAll: boolean;
  /** It carries every needed SKU with enough stock for the summed quantities: routing may choose it. */
  canServe: boolean;
  /** Its price of the items (pharmacy price × quantity) and its stock of those SKUs, for the preference. */
  price: number;
  stock: number;
};

/**
 * What each of the organisation's pharmacies that carries any of the items offers for them (one
 * statement, none with `known`: the offers pharmacyOffersSql read for at least these items' SKUs).
 * Pharmacies that carry none are not listed. The one reading of stock and assortment that automatic
 * routing chooses by and the admin tool's pharmacy chooser shows.
 */
export async function pharmacyOffers(tx: RawTx, organisationId: string, items: Need[], known?: readonly Offer[]): Promise<PharmacyOffer[]> {
  const needs = totalNeeds(items);
  const skuIds = [...needs.keys()];
  const offers = known
    ? known.filter((offer) => needs.has(offer.skuId))
    : await tx.$queryRaw<Offer[]>(pharmacyOffersSql(organisationId, Prisma.sql`SELECT unnest(${skuIds}::text[])`));
  const byPharmacy = new Map<string, { skus: Map<string, string>; enough: number; price: number; stock: number }>();
  for (const offer of offers) {
    const hidden =
      (offer.hiddenSkuType === "DIGITAL" && offer.digital) || (offer.hiddenSkuType === "PHYSICAL" && !offer.digital);
    if (hidden) continue;
    const needed = needs.get(offer.skuId)!;
    const entry = byPharmacy.get(offer.pharmacyId) ?? { skus: new Map<string, string>(), enough: 0, price: 0, stock: 0 };
    entry.skus.set(offer.skuId, offer.id);
    if (offer.stock >= needed) entry.enough += 1;
    entry.price += offer.price * needed;
    entry.stock += offer.stock;
    byPharmacy.set(offer.pharmacyId, entry);
  }
  return [...byPharmacy.entries()].map(([pharmacyId, e]) => ({
    pharmacyId,
    pharmacySkuBySku: e.skus,
    carriesAll: e.skus.size === skuIds.length,
    canServe: e.enough === skuIds.length,
    price: e.price,
    stock: e.stock,
  }));
}

/** Routing's preference among pharmacies that can serve: the lowest total price, then the most stock, then the lowest pharmacy uid. */
export function byRoutingPreference(a: PharmacyOffer, b: PharmacyOffer): number {
  return a.price - b.price || b.stock - a.stock || (a.pharmacyId < b.pharmacyId ? -1 : 1);
}

/**
 * Chooses the pharmacy of a fulfillment. An explicit pharmacy (destination_pharmacy_uid,
 * location_id or the order's pharmacy_uid, resolved by the caller, or an admin's choice) is taken
 * as it is. Otherwise automatic selection among the organisation's pharmacies that carry every SKU
 * of the fulfillment with enough stock (and do not hide its type), leaving out `excludedPharmacyIds`
 * (those that cancelled the fulfillment before): the lowest total price, then the most stock of
 * those SKUs, then the lowest pharmacy uid, so the choice is deterministic. Null when none can.
 * `known`: the organisation's offers of these SKUs, read already (pharmacyOffersSql): no statement.
 */
export async function routeFulfillmentToPharmacy(
  tx: RawTx,
  organisationId: string,
  items: Need[],
  explicitPharmacyId: string | null,
  excludedPharmacyIds: readonly string[] = [],
  known?: readonly Offer[],
): Promise<RoutedPharmacy | null> {
  if (explicitPharmacyId) {
    const skuIds = [...totalNeeds(items).keys()];
    const pharmacySkuBySku = known
      ? new Map(known.filter((o) => o.pharmacyId === explicitPharmacyId && skuIds.includes(o.skuId)).map((o) => [o.skuId, o.id]))
      : await pharmacySkusAt(tx, explicitPharmacyId, skuIds);
    return { pharmacyId: explicitPharmacyId, pharmacySkuBySku };
  }
  const candidates = (await pharmacyOffers(tx, organisationId, items, known)).filter((o) => o.canServe && !excludedPharmacyIds.includes(o.pharmacyId));
  const best = candidates.sort(byRoutingPreference)[0];
  return best ? { pharmacyId: best.pharmacyId, pharmacySkuBySku: best.pharmacySkuBySku } : null;
}
