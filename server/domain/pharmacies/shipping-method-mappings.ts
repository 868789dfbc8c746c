import { database } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";

/**
 * A pharmacy's own identifiers for the shops' shipping methods (spec: "A pharmacist configures the
 * pharmacy-specific identifier per shop shipping method in the pharmacy tool settings"). The
 * methods that reach a pharmacy are every shipping method of its organisation's shops, not only
 * those its orders used so far, so a mapping can be set before the first order
 * (docs/decisions/pharmacy-portal.md#stock-and-prices-shipping-methods-payouts). Pharmacy order details and webhooks read
 * the mapping at their pharmacy order's pharmacy.
 */
export type ShippingMethodForPharmacy = {
  id: string;
  displayName: string;
  externalId: string;
  shop: { id: string; displayName: string; identifier: string };
  /** The pharmacy's identifier; null while none is set. */
  identifierForPharmacy: string | null;
};

type PharmacyRef = { id: string; organisationId: string };

/** Every shipping method of the organisation's shops, by shop and name, with this pharmacy's identifier. */
export async function listShippingMethodsForPharmacy(pharmacy: PharmacyRef): Promise<ShippingMethodForPharmacy[]> {
  const db = await database();
  const methods = await db.shopShippingMethod.findMany({
    where: { shop: { organisationId: pharmacy.organisationId } },
    orderBy: [{ shop: { displayName: "asc" } }, { shopId: "asc" }, { displayName: "asc" }, { id: "asc" }],
    select: {
      id: true,
      displayName: true,
      externalId: true,
      shop: { select: { id: true, displayName: true, identifier: true } },
      mappings: { where: { pharmacyId: pharmacy.id }, select: { identifierForPharmacy: true } },
    },
  });
  return methods.map(({ mappings, ...method }) => ({ ...method, identifierForPharmacy: mappings[0]?.identifierForPharmacy ?? null }));
}

/** One method's new identifier: a text sets it, null (or blank) removes the mapping. */
export type ShippingMethodMappingChange = { shopShippingMethodId: string; identifierForPharmacy: string | null };

/**
 * Sets or removes the pharmacy's identifiers of the given methods, all or nothing; methods not named
 * keep theirs. A method that is not of the organisation's shops is not found (nothing changes).
 */
export async function setShippingMethodMappings(pharmacy: PharmacyRef, changes: ShippingMethodMappingChange[]): Promise<void> {
  const db = await database();
  const ids = [...new Set(changes.map((c) => c.shopShippingMethodId))];
  await db.$transaction(async (tx) => {
    const known = await tx.shopShippingMethod.count({ where: { id: { in: ids }, shop: { organisationId: pharmacy.organisationId } } });
    if (known !== ids.length) throw new NotFoundError();
    for (const change of changes) {
      const identifier = change.identifierForPharmacy?.trim() || null;
      const key = { pharmacyId_shopShippingMethodId: { pharmacyId: pharmacy.id, shopShippingMethodId: change.shopShippingMethodId } };
      if (identifier === null) {
        await tx.pharmacyShippingMethodMapping.deleteMany({ where: { pharmacyId: pharmacy.id, shopShippingMethodId: change.shopShippingMethodId } });
      } else {
        await tx.pharmacyShippingMethodMapping.upsert({
          where: key,
          create: { pharmacyId: pharmacy.id, shopShippingMethodId: change.shopShippingMethodId, identifierForPharmacy: identifier },
          update: { identifierForPharmacy: identifier },
        });
      }
    }
  });
}
