import { errorText } from "@/i18n/error-text";
import { database, type Prisma } from "@/server/db/client";
import { isUniqueViolation } from "@/server/db/errors";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { ConflictError, NotFoundError, ValidationError } from "@/server/domain/errors";
import { pageArgs, type Page } from "@/server/domain/paging";
import { containsInsensitive } from "@/server/domain/search";

const live = { deletedAt: null } as const;

/** A product with everything connected to it: live SKUs with their shop and pharmacy SKUs, and shop products. */
const creationOrder = [{ createdAt: "asc" as const }, { id: "asc" as const }];
const productGraph = {
  skus: {
    where: { deletedAt: null },
    orderBy: creationOrder,
    include: {
      shopSkus: { where: { deletedAt: null }, orderBy: creationOrder },
      pharmacySkus: { where: { deletedAt: null }, orderBy: creationOrder },
    },
  },
  shopProducts: { orderBy: creationOrder },
} satisfies Prisma.ProductInclude;

/** `search`: a case-insensitive substring of the product's name or handle (the admin tool's list; REST passes none). */
export async function listProducts(organisationId: string, page: Page, filters: { search?: string } = {}) {
  const db = await database();
  const term = filters.search?.trim();
  const where = {
    organisationId,
    ...live,
    ...(term ? { OR: [{ displayName: containsInsensitive(term) }, { handle: containsInsensitive(term) }] } : {}),
  };
  const [items, total] = await Promise.all([
    db.product.findMany({
      where,
      include: productGraph,
      orderBy: creationOrder,
      ...pageArgs(page),
    }),
    db.product.count({ where }),
  ]);
  return { items, total };
}

export async function getProduct(organisationId: string, productId: string) {
  const db = await database();
  const product = await db.product.findFirst({ where: { id: productId, organisationId, ...live }, include: productGraph });
  if (!product) throw new NotFoundError();
  return product;
}

export type ProductWithGraph = Awaited<ReturnType<typeof getProduct>>;

export type ProductFields = { displayName: string; handle: string | null; prescriptionRequired: boolean };

/** Creates a product of the organisation (the admin tool; the Management API only reads products). */
export async function createProduct(organisationId: string, fields: ProductFields, actor: Actor) {
  const db = await database();
  return db.$transaction(async (tx) => {
    const product = await tx.product.create({ data: { ...fields, organisationId } });
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "product",
      entityId: product.id,
      action: "created",
      summary: `Product "${product.displayName}" created`,
      values: { name: product.displayName },
    });
    return product;
  });
}

export async function updateProduct(organisationId: string, productId: string, changes: Partial<ProductFields>, actor: Actor) {
  const db = await database();
  return db.$transaction(async (tx) => {
    const { count } = await tx.product.updateMany({ where: { id: productId, organisationId, ...live }, data: changes });
    if (count === 0) throw new NotFoundError();
    const product = await tx.product.findUniqueOrThrow({ where: { id: productId } });
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "product",
      entityId: product.id,
      action: "updated",
      summary: `Product "${product.displayName}" updated`,
      values: { name: product.displayName },
      details: { fields: Object.keys(changes).filter((k) => changes[k as keyof ProductFields] !== undefined) },
    });
    return product;
  });
}

/**
 * Soft delete. A product that still has live SKUs is refused (409): deleting its SKUs first is a
 * choice the admin makes one SKU at a time, seeing what each takes with it.
 */
export async function deleteProduct(organisationId: string, productId: string, actor: Actor): Promise<void> {
  const db = await database();
  await db.$transaction(async (tx) => {
    const product = await tx.product.findFirst({ where: { id: productId, organisationId, ...live }, select: { id: true, displayName: true } });
    if (!product) throw new NotFoundError();
    const skus = await tx.sku.count({ where: { productId, deletedAt: null } });
    if (skus > 0) throw new ConflictError(errorText("catalogue.productHasSkus", { count: skus }));
    await tx.product.update({ where: { id: productId }, data: { deletedAt: new Date() } });
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "product",
      entityId: product.id,
      action: "deleted",
      summary: `Product "${product.displayName}" deleted`,
      values: { name: product.displayName },
    });
  });
}

const DUPLICATE_SHOP_PRODUCT = errorText("catalogue.duplicateShopProduct");

/**
 * Lists a product in a shop under the shop's own id of it (what shop SKUs hang from). The external
 * id is unique per shop (a database constraint): a duplicate is a conflict on that field.
 */
export async function createShopProduct(
  organisationId: string,
  productId: string,
  input: { shopId: string; externalId: string },
  actor: Actor,
) {
  const db = await database();
  try {
    return await db.$transaction(async (tx) => {
      const product = await tx.product.findFirst({ where: { id: productId, organisationId, ...live }, select: { id: true, displayName: true } });
      if (!product) throw new NotFoundError();
      const shop = await tx.shop.findFirst({ where: { id: input.shopId, organisationId }, select: { id: true, displayName: true } });
      if (!shop) throw ValidationError.field("shop_uid", errorText("catalogue.shopNotFound"));
      const clash = await tx.shopProduct.findFirst({ where: { shopId: shop.id, externalId: input.externalId }, select: { id: true } });
      if (clash) throw duplicateShopProduct();
      const shopProduct = await tx.shopProduct.create({ data: { shopId: shop.id, productId, externalId: input.externalId } });
      await recordAuditEvent(tx, organisationId, actor, {
        entity: "product",
        entityId: product.id,
        action: "listed_in_shop",
        values: { name: product.displayName, shop: shop.displayName, externalId: input.externalId },
        summary: `Product "${product.displayName}" listed in shop "${shop.displayName}" as "${input.externalId}"`,
      });
      return shopProduct;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateShopProduct();
    throw error;
  }
}

const duplicateShopProduct = () => new ConflictError(DUPLICATE_SHOP_PRODUCT, {}, { external_id: [DUPLICATE_SHOP_PRODUCT] });
