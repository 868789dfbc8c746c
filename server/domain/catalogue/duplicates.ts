import { database } from "@/server/db/client";

/**
 * Other live products with the same handle and other live SKUs with the same PZN in one
 * organisation. The spec makes neither unique (only a shop's shop SKUs per SKU and variation id are:
 * docs/decisions/catalogue.md#catalogue-duplicates), so the admin tool warns before and after a save
 * and refuses nothing: a handle is compared without case (shops treat "Ibu-400" and "ibu-400" as
 * one), a PZN as written, both trimmed. `except…` leaves out the product or SKU being edited.
 */
export async function findCatalogueDuplicates(
  organisationId: string,
  query: { handle?: string; pzn?: string; exceptProductId?: string; exceptSkuId?: string },
) {
  const db = await database();
  const handle = query.handle?.trim();
  const pzn = query.pzn?.trim();
  const [products, skus] = await Promise.all([
    handle
      ? db.product.findMany({
          where: { organisationId, deletedAt: null, handle: { equals: handle, mode: "insensitive" }, ...(query.exceptProductId ? { id: { not: query.exceptProductId } } : {}) },
          select: { id: true, displayName: true },
          orderBy: { createdAt: "asc" },
          take: 5,
        })
      : [],
    pzn
      ? db.sku.findMany({
          where: { organisationId, deletedAt: null, pzn, ...(query.exceptSkuId ? { id: { not: query.exceptSkuId } } : {}) },
          select: { id: true, displayName: true, productId: true },
          orderBy: { createdAt: "asc" },
          take: 5,
        })
      : [],
  ]);
  return { products, skus };
}
