import { database, type Db } from "@/server/db/client";
import { NotFoundError, ValidationError } from "@/server/domain/errors";
import { pageArgs, type Page } from "@/server/domain/paging";
import { startsWithInsensitive } from "@/server/domain/search";

export type SkuFields = {
  displayName: string;
  pzn: string | null;
  digital: boolean;
  dosage: string | null;
  unit: string | null;
  pcs: number | null;
  weight: number | null;
  therapyDuration: number | null;
  standardSellingUnit: number | null;
  prescriptionName: string | null;
  skipForPharmacyOrders: boolean;
};

/** Prefix search, case-insensitive, on the SKU display name, the PZN or the product display name. */
export async function listSkus(organisationId: string, search: string | undefined, page: Page) {
  const db = await database();
  const prefix = search?.trim();
  const startsWith = (field: string) => ({ [field]: startsWithInsensitive(prefix!) });
  const where = {
    organisationId,
    deletedAt: null,
    ...(prefix
      ? { OR: [startsWith("displayName"), startsWith("pzn"), { product: startsWith("displayName") }] }
      : {}),
  };
  const [items, total] = await Promise.all([
    db.sku.findMany({ where, orderBy: [{ createdAt: "asc" }, { id: "asc" }], ...pageArgs(page) }),
    db.sku.count({ where }),
  ]);
  return { items, total };
}

export async function getSku(organisationId: string, skuId: string) {
  const db = await database();
  const sku = await db.sku.findFirst({ where: { id: skuId, organisationId, deletedAt: null } });
  if (!sku) throw new NotFoundError();
  return sku;
}

async function requireProduct(db: Db, organisationId: string, productId: string) {
  const product = await db.product.findFirst({ where: { id: productId, organisationId, deletedAt: null } });
  if (!product) throw ValidationError.field("product_uid", "Product not found.");
  return product;
}

export async function createSku(organisationId: string, productId: string, fields: Partial<SkuFields> & { displayName: string }) {
  const db = await database();
  await requireProduct(db, organisationId, productId);
  return db.sku.create({ data: { ...fields, organisationId, productId } });
}

export async function updateSku(
  organisationId: string,
  skuId: string,
  changes: Partial<SkuFields> & { productId?: string },
) {
  const db = await database();
  await getSku(organisationId, skuId);
  if (changes.productId) await requireProduct(db, organisationId, changes.productId);
  return db.sku.update({ where: { id: skuId }, data: changes });
}

/**
 * Soft delete: the SKU, and with it its shop SKUs and pharmacy SKUs, disappear from every list and
 * read; orders that used them keep their references.
 */
export async function deleteSku(organisationId: string, skuId: string): Promise<void> {
  const db = await database();
  const deletedAt = new Date();
  await db.$transaction(async (tx) => {
    const { count } = await tx.sku.updateMany({ where: { id: skuId, organisationId, deletedAt: null }, data: { deletedAt } });
    if (count === 0) throw new NotFoundError();
    await tx.shopSku.updateMany({ where: { skuId, deletedAt: null }, data: { deletedAt } });
    await tx.pharmacySku.updateMany({ where: { skuId, deletedAt: null }, data: { deletedAt } });
  });
}
