/**
 * Tenants for tests. Through the product's own commands: the SKUs (createSku) and the API keys
 * (createApiKey). Inserted directly with Prisma, because the product has no command that creates
 * them yet: the organisation, its shops, pharmacy group and pharmacies, products, shop products and
 * pharmacy SKUs. Shop SKUs and orders come from tests/orders.ts.
 */
import { randomUUID } from "node:crypto";
import { createApiKey } from "@/server/auth/api-keys";
import { PERMISSIONS } from "@/server/auth/permissions";
import { database } from "@/server/db/client";
import { createSku } from "@/server/domain/catalogue/skus";
import type { Actor } from "@/server/domain/actor";

/** The fixtures' catalogue is set up by the system, as the seed would. */
const SYSTEM: Actor = { type: "SYSTEM" };

/**
 * A doctor's prescriber details, complete for signing (server/domain/prescriptions/completeness.ts):
 * spread into a `doctor.create`'s data for a doctor who signs.
 */
export const PRESCRIBER = {
  professionalTitle: "Facharzt für Allgemeinmedizin",
  practiceName: "Praxis am Markt",
  practiceStreet: "Marktstraße 1",
  practicePostalCode: "10115",
  practiceCity: "Berlin",
  practiceCountry: "DE",
  phone: "+49 30 1234567",
  identificationType: "LANR",
  identificationValue: "123456789",
} as const;

export async function createTenant(options: { hiddenSkuType?: "NONE" | "DIGITAL" | "PHYSICAL" } = {}) {
  const db = await database();
  const tag = randomUUID().slice(0, 8);
  const organisation = await db.organisation.create({ data: { displayName: `Org ${tag}` } });
  const organisationId = organisation.id;
  const shop = await db.shop.create({ data: { organisationId, identifier: `shop-${tag}`, displayName: "Shop" } });
  const otherShop = await db.shop.create({ data: { organisationId, identifier: `shop2-${tag}`, displayName: "Shop 2" } });
  const group = await db.pharmacyGroup.create({ data: { organisationId, displayName: "Group" } });
  const pharmacy = await db.pharmacy.create({
    data: { organisationId, groupId: group.id, displayName: "Apotheke A", hiddenSkuType: options.hiddenSkuType ?? "NONE" },
  });
  const groupPharmacy = await db.pharmacy.create({ data: { organisationId, groupId: group.id, displayName: "Apotheke B" } });
  const loosePharmacy = await db.pharmacy.create({ data: { organisationId, displayName: "Apotheke C" } });

  const product = await db.product.create({ data: { organisationId, displayName: "Aspirin", handle: `aspirin-${tag}`, prescriptionRequired: false } });
  const rxProduct = await db.product.create({ data: { organisationId, displayName: "Finasteride", handle: `fin-${tag}` } });
  const sku = await createSku(organisationId, product.id, { displayName: "Aspirin 500 mg", pzn: "11111111" }, SYSTEM);
  const digitalSku = await createSku(organisationId, product.id, { displayName: "Aspirin e-voucher", pzn: "22222222", digital: true }, SYSTEM);
  const rxSku = await createSku(organisationId, rxProduct.id, { displayName: "Finasteride 1 mg", pzn: "33333333" }, SYSTEM);
  const shopProduct = await db.shopProduct.create({ data: { shopId: shop.id, productId: product.id, externalId: `sp-${tag}` } });
  const rxShopProduct = await db.shopProduct.create({ data: { shopId: shop.id, productId: rxProduct.id, externalId: `sprx-${tag}` } });
  const otherShopProduct = await db.shopProduct.create({ data: { shopId: otherShop.id, productId: product.id, externalId: `sp2-${tag}` } });
  const pharmacySku = await db.pharmacySku.create({ data: { pharmacyId: pharmacy.id, skuId: sku.id, externalId: "A-1", price: 450, stock: 10 } });
  const digitalPharmacySku = await db.pharmacySku.create({
    data: { pharmacyId: pharmacy.id, skuId: digitalSku.id, externalId: "A-2", price: 100, stock: 5 },
  });
  const groupPharmacySku = await db.pharmacySku.create({
    data: { pharmacyId: groupPharmacy.id, skuId: sku.id, externalId: "B-1", price: 470, stock: 3 },
  });

  const key = async (family: "MANAGEMENT" | "PUBLIC" | "PHARMACY", permissions: readonly string[], scope: { pharmacyId?: string; pharmacyGroupId?: string } = {}) =>
    (await createApiKey({ family, displayName: `${family} ${permissions.join(",")}`, permissions: [...permissions], organisationId, ...scope })).plaintext;

  const keys = {
    management: await key("MANAGEMENT", PERMISSIONS.MANAGEMENT),
    managementReadOnly: await key("MANAGEMENT", ["product:read"]),
    managementNoPermissions: await key("MANAGEMENT", []),
    public: await key("PUBLIC", PERMISSIONS.PUBLIC),
    pharmacy: await key("PHARMACY", PERMISSIONS.PHARMACY, { pharmacyId: pharmacy.id }),
    pharmacyStockRead: await key("PHARMACY", ["stock_read"], { pharmacyId: pharmacy.id }),
    pharmacyOrdersRead: await key("PHARMACY", ["orders_read"], { pharmacyId: pharmacy.id }),
    pharmacyGroup: await key("PHARMACY", PERMISSIONS.PHARMACY, { pharmacyGroupId: group.id }),
    loosePharmacy: await key("PHARMACY", PERMISSIONS.PHARMACY, { pharmacyId: loosePharmacy.id }),
  };

  return {
    db,
    organisation,
    shop,
    otherShop,
    group,
    pharmacy,
    groupPharmacy,
    loosePharmacy,
    product,
    rxProduct,
    sku,
    digitalSku,
    rxSku,
    shopProduct,
    rxShopProduct,
    otherShopProduct,
    pharmacySku,
    digitalPharmacySku,
    groupPharmacySku,
    keys,
  };
}

export type Tenant = Awaited<ReturnType<typeof createTenant>>;
