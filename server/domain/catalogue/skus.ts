import { errorText } from "@/i18n/error-text";
import { database, type Db, type Tx } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
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

async function requireProduct(db: Db | Tx, organisationId: string, productId: string) {
  const product = await db.product.findFirst({ where: { id: productId, organisationId, deletedAt: null } });
  if (!product) throw ValidationError.field("product_uid", errorText("catalogue.productNotFound"));
  return product;
}

/** The names of the fields a change sets, for the audit log (never their values). */
const changedFields = (changes: Record<string, unknown>) => Object.keys(changes).filter((k) => changes[k] !== undefined);

export async function createSku(organisationId: string, productId: string, fields: Partial<SkuFields> & { displayName: string }, actor: Actor) {
  const db = await database();
  return db.$transaction(async (tx) => {
    const product = await requireProduct(tx, organisationId, productId);
    const sku = await tx.sku.create({ data: { ...fields, organisationId, productId } });
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "sku",
      entityId: sku.id,
      action: "created",
      summary: `SKU "${sku.displayName}" of "${product.displayName}" created`,
      values: { name: sku.displayName, product: product.displayName },
    });
    return sku;
  });
}

export async function updateSku(
  organisationId: string,
  skuId: string,
  changes: Partial<SkuFields> & { productId?: string },
  actor: Actor,
) {
  const db = await database();
  return db.$transaction(async (tx) => {
    const current = await tx.sku.findFirst({ where: { id: skuId, organisationId, deletedAt: null }, select: { id: true } });
    if (!current) throw new NotFoundError();
    if (changes.productId) await requireProduct(tx, organisationId, changes.productId);
    const sku = await tx.sku.update({ where: { id: skuId }, data: changes });
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "sku",
      entityId: sku.id,
      action: "updated",
      summary: `SKU "${sku.displayName}" updated`,
      values: { name: sku.displayName },
      details: { fields: changedFields(changes) },
    });
    return sku;
  });
}

/**
 * Soft delete: the SKU, and with it its shop SKUs and pharmacy SKUs, disappear from every list and
 * read; orders that used them keep their references.
 */
export async function deleteSku(organisationId: string, skuId: string, actor: Actor): Promise<void> {
  const db = await database();
  const deletedAt = new Date();
  await db.$transaction(async (tx) => {
    const { count } = await tx.sku.updateMany({ where: { id: skuId, organisationId, deletedAt: null }, data: { deletedAt } });
    if (count === 0) throw new NotFoundError();
    const shopSkus = await tx.shopSku.updateMany({ where: { skuId, deletedAt: null }, data: { deletedAt } });
    const pharmacySkus = await tx.pharmacySku.updateMany({ where: { skuId, deletedAt: null }, data: { deletedAt } });
    const sku = await tx.sku.findUniqueOrThrow({ where: { id: skuId }, select: { displayName: true } });
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "sku",
      entityId: skuId,
      action: "deleted",
      values: { name: sku.displayName, shopSkus: shopSkus.count, pharmacySkus: pharmacySkus.count },
      summary: `SKU "${sku.displayName}" deleted with ${shopSkus.count} shop SKU(s) and ${pharmacySkus.count} pharmacy SKU(s)`,
    });
  });
}
