import { errorText } from "@/i18n/error-text";
import { database, type Db, type Prisma, type Tx } from "@/server/db/client";
import { isUniqueViolation } from "@/server/db/errors";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
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


/**
 * A duplicate, with the field it clashes on for forms (the REST body is the message alone). A race
 * caught by the unique indexes does not say which: both fields are named.
 */
function duplicate(on: ("sku_uid" | "shop_variation_id")[]) {
  const messages = { sku_uid: errorText("catalogue.duplicateShopSkuForSku"), shop_variation_id: errorText("catalogue.duplicateShopSkuVariation") };
  return new ConflictError(errorText("catalogue.duplicateShopSku"), {}, Object.fromEntries(on.map((field) => [field, [messages[field]]])));
}

/** The organisation's shops, by name (the admin tool's shop pickers). */
export async function listShops(organisationId: string) {
  const db = await database();
  return db.shop.findMany({
    where: { organisationId },
    orderBy: [{ displayName: "asc" }, { id: "asc" }],
    select: { id: true, displayName: true, identifier: true },
  });
}

export async function listShopSkus(
  organisationId: string,
  filter: { shopId?: string; search?: string },
  page: Page,
) {
  return listShopSkusOf(organisationId, filter, page, {});
}

/** listShopSkus with each entry's SKU and shop product named (the admin tool's list; REST needs neither). */
export async function listShopSkusWithNames(organisationId: string, filter: { shopId?: string; search?: string }, page: Page) {
  return listShopSkusOf(organisationId, filter, page, {
    sku: { select: { displayName: true, pzn: true } },
    shopProduct: { select: { externalId: true, product: { select: { id: true, displayName: true } } } },
  });
}

async function listShopSkusOf<I extends Prisma.ShopSkuInclude>(
  organisationId: string,
  filter: { shopId?: string; search?: string },
  page: Page,
  include: I,
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
    db.shopSku.findMany({ where, include, orderBy: [{ createdAt: "asc" }, { id: "asc" }], ...pageArgs(page) }),
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
  if (!shop) throw ValidationError.field("shop_uid", errorText("catalogue.shopNotFound"));
  const shopProduct = await tx.shopProduct.findFirst({ where: { id: refs.shopProductId, shopId: refs.shopId } });
  if (!shopProduct) throw ValidationError.field("shop_product_uid", errorText("catalogue.shopProductNotFound"));
  if (refs.skuId) {
    const sku = await tx.sku.findFirst({ where: { id: refs.skuId, organisationId, deletedAt: null } });
    if (!sku) throw ValidationError.field("sku_uid", errorText("catalogue.skuNotFound"));
    if (sku.productId !== shopProduct.productId) {
      throw ValidationError.field("sku_uid", errorText("catalogue.skuOfAnotherProduct"));
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
  const found = await tx.shopSku.findMany({
    where: { shopId, deletedAt: null, OR: clashes, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { skuId: true, shopVariationId: true },
    take: 2,
  });
  if (found.length === 0) return;
  const on = [
    ...(values.skuId && found.some((f) => f.skuId === values.skuId) ? (["sku_uid"] as const) : []),
    ...(values.shopVariationId && found.some((f) => f.shopVariationId === values.shopVariationId) ? (["shop_variation_id"] as const) : []),
  ];
  throw duplicate(on);
}

async function translateDuplicate<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(["sku_uid", "shop_variation_id"]);
    throw error;
  }
}

/** What a person reads of a shop SKU in the audit log: its variation id or shop SKU, and its shop. */
async function describe(tx: Tx, shopSku: { shopId: string; shopVariationId: string | null; shopSku: string | null; id: string }) {
  const shop = await tx.shop.findUniqueOrThrow({ where: { id: shopSku.shopId }, select: { displayName: true } });
  const values = { name: shopSku.shopVariationId ?? shopSku.shopSku ?? shopSku.id, shop: shop.displayName };
  return { text: `Shop SKU "${values.name}" of shop "${values.shop}"`, values };
}

export async function createShopSku(
  organisationId: string,
  input: { shopId: string; shopProductId: string } & Partial<ShopSkuFields> & { price: number },
  actor: Actor,
) {
  const db = await database();
  return translateDuplicate(() =>
    db.$transaction(async (tx) => {
      const skuId = input.skuId ?? null;
      await checkReferences(tx, organisationId, { shopId: input.shopId, shopProductId: input.shopProductId, skuId });
      await checkUnique(tx, input.shopId, { skuId, shopVariationId: input.shopVariationId ?? null });
      const created = await tx.shopSku.create({ data: input });
      const described = await describe(tx, created);
      await recordAuditEvent(tx, organisationId, actor, {
        entity: "shop_sku",
        entityId: created.id,
        action: "created",
        summary: `${described.text} created`,
        values: described.values,
      });
      return created;
    }),
  );
}

export async function updateShopSku(organisationId: string, shopSkuId: string, changes: Partial<ShopSkuFields>, actor: Actor) {
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
      const updated = await tx.shopSku.update({ where: { id: current.id }, data: changes });
      const described = await describe(tx, updated);
      await recordAuditEvent(tx, organisationId, actor, {
        entity: "shop_sku",
        entityId: updated.id,
        action: "updated",
        summary: `${described.text} updated`,
        values: described.values,
        details: { fields: Object.keys(changes).filter((k) => changes[k as keyof ShopSkuFields] !== undefined) },
      });
      return updated;
    }),
  );
}

export async function deleteShopSku(organisationId: string, shopSkuId: string, actor: Actor): Promise<void> {
  const db = await database();
  await db.$transaction(async (tx) => {
    const { count } = await tx.shopSku.updateMany({
      where: { id: shopSkuId, deletedAt: null, shop: { organisationId } },
      data: { deletedAt: new Date() },
    });
    if (count === 0) throw new NotFoundError();
    const deleted = await tx.shopSku.findUniqueOrThrow({ where: { id: shopSkuId } });
    const described = await describe(tx, deleted);
    await recordAuditEvent(tx, organisationId, actor, {
      entity: "shop_sku",
      entityId: shopSkuId,
      action: "deleted",
      summary: `${described.text} deleted`,
      values: described.values,
    });
  });
}
