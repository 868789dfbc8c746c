import { database, type Db, type Tx } from "@/server/db/client";
import { isUniqueViolation } from "@/server/db/errors";
import { ConflictError, NotFoundError, ValidationError } from "@/server/domain/errors";
import { pageArgs, type Page } from "@/server/domain/paging";
import { startsWithInsensitive } from "@/server/domain/search";

export type ShopSkuFields = {
  skuId: string | null;
  shopSku: string | null;
  shopVariationId: string | null;
  price: number;
  imageUrl: string | null;
  lastSyncedStock: number | null;
};

const DUPLICATE = "Shop SKU already exists";

export async function listShopSkus(
  organisationId: string,
  filter: { shopId?: string; search?: string },
  page: Page,
) {
  const db = await database();
  const prefix = filter.search?.trim();
  const startsWith = (field: string) => ({ [field]: startsWithInsensitive(prefix!) });
  const where = {
    deletedAt: null,
    shop: { organisationId },
    ...(filter.shopId ? { shopId: filter.shopId } : {}),
    ...(prefix ? { OR: [startsWith("shopVariationId"), startsWith("shopSku")] } : {}),
  };
  const [items, total] = await Promise.all([
    db.shopSku.findMany({ where, orderBy: [{ createdAt: "asc" }, { id: "asc" }], ...pageArgs(page) }),
    db.shopSku.count({ where }),
  ]);
  return { items, total };
}

export async function getShopSku(organisationId: string, shopSkuId: string) {
  return findLiveShopSku(await database(), organisationId, shopSkuId);
}

async function findLiveShopSku(db: Db | Tx, organisationId: string, shopSkuId: string) {
  const shopSku = await db.shopSku.findFirst({ where: { id: shopSkuId, deletedAt: null, shop: { organisationId } } });
  if (!shopSku) throw new NotFoundError();
  return shopSku;
}

/** The references of a shop SKU must all be of the organisation, and the shop product of the shop. */
async function checkReferences(
  tx: Tx,
  organisationId: string,
  refs: { shopId: string; shopProductId: string; skuId: string | null },
) {
  const shop = await tx.shop.findFirst({ where: { id: refs.shopId, organisationId } });
  if (!shop) throw ValidationError.field("shop_uid", "Shop not found.");
  const shopProduct = await tx.shopProduct.findFirst({ where: { id: refs.shopProductId, shopId: refs.shopId } });
  if (!shopProduct) throw ValidationError.field("shop_product_uid", "Shop product not found in this shop.");
  if (refs.skuId) {
    const sku = await tx.sku.findFirst({ where: { id: refs.skuId, organisationId, deletedAt: null } });
    if (!sku) throw ValidationError.field("sku_uid", "SKU not found.");
    if (sku.productId !== shopProduct.productId) {
      throw ValidationError.field("sku_uid", "The SKU belongs to another product than the shop product.");
    }
  }
}

/**
 * Within one shop only one live shop SKU may exist per sku_uid and per shop_variation_id.
 * Checked here for a clear answer, and enforced by partial unique indexes against races.
 */
async function checkUnique(
  tx: Tx,
  shopId: string,
  values: { skuId: string | null; shopVariationId: string | null },
  exceptId?: string,
) {
  const clashes = [
    ...(values.skuId ? [{ skuId: values.skuId }] : []),
    ...(values.shopVariationId ? [{ shopVariationId: values.shopVariationId }] : []),
  ];
  if (clashes.length === 0) return;
  const clash = await tx.shopSku.findFirst({
    where: { shopId, deletedAt: null, OR: clashes, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { id: true },
  });
  if (clash) throw new ConflictError(DUPLICATE);
}

async function translateDuplicate<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(DUPLICATE);
    throw error;
  }
}

export async function createShopSku(
  organisationId: string,
  input: { shopId: string; shopProductId: string } & Partial<ShopSkuFields> & { price: number },
) {
  const db = await database();
  return translateDuplicate(() =>
    db.$transaction(async (tx) => {
      const skuId = input.skuId ?? null;
      await checkReferences(tx, organisationId, { shopId: input.shopId, shopProductId: input.shopProductId, skuId });
      await checkUnique(tx, input.shopId, { skuId, shopVariationId: input.shopVariationId ?? null });
      return tx.shopSku.create({ data: input });
    }),
  );
}

export async function updateShopSku(organisationId: string, shopSkuId: string, changes: Partial<ShopSkuFields>) {
  const db = await database();
  return translateDuplicate(() =>
    db.$transaction(async (tx) => {
      const current = await findLiveShopSku(tx, organisationId, shopSkuId);
      const next = {
        skuId: changes.skuId === undefined ? current.skuId : changes.skuId,
        shopVariationId: changes.shopVariationId === undefined ? current.shopVariationId : changes.shopVariationId,
      };
      if (changes.skuId !== undefined) {
        await checkReferences(tx, organisationId, {
          shopId: current.shopId,
          shopProductId: current.shopProductId,
          skuId: next.skuId,
        });
      }
      await checkUnique(tx, current.shopId, { skuId: next.skuId, shopVariationId: next.shopVariationId }, current.id);
      return tx.shopSku.update({ where: { id: current.id }, data: changes });
    }),
  );
}

export async function deleteShopSku(organisationId: string, shopSkuId: string): Promise<void> {
  const db = await database();
  const { count } = await db.shopSku.updateMany({
    where: { id: shopSkuId, deletedAt: null, shop: { organisationId } },
    data: { deletedAt: new Date() },
  });
  if (count === 0) throw new NotFoundError();
}
