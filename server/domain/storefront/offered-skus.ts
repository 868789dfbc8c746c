import type { Db, Tx } from "@/server/db/client";

export type StockRequest = { skuId: string; quantity: number };

export type OfferedSku = { skuId: string; shopSkuId: string; price: number; shopVariationId: string | null };

/** The shop's live shop SKUs of live SKUs among `skuIds`, by SKU id: what its storefront can sell. */
export async function offeredSkus(db: Db | Tx, shopId: string, skuIds: readonly string[]): Promise<Map<string, OfferedSku>> {
  const rows = await db.$queryRaw<OfferedSku[]>`
    SELECT ss."skuId", ss."id" AS "shopSkuId", ss."price", ss."shopVariationId"
      FROM "ShopSku" ss JOIN "Sku" s ON s."id" = ss."skuId"
     WHERE ss."shopId" = ${shopId} AND ss."skuId" = ANY(${[...new Set(skuIds)]}::text[])
       AND ss."deletedAt" IS NULL AND s."deletedAt" IS NULL`;
  return new Map(rows.map((r) => [r.skuId, r]));
}
