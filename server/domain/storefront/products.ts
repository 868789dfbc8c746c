import { database, Prisma } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import type { Page } from "@/server/domain/paging";
import { escapeLike } from "@/server/domain/search";
import { availabilityOf, availableQuantities, type Availability } from "./stock";

export type StorefrontSku = {
  id: string;
  displayName: string;
  pzn: string | null;
  dosage: string | null;
  pcs: number | null;
  weight: number | null;
  therapyDuration: number | null;
  unit: string | null;
  standardSellingUnit: number | null;
  /** The shop SKU's price, in cents. */
  price: number;
  availability: Availability;
};

export type StorefrontProduct = { id: string; displayName: string; prescriptionRequired: boolean; skus: StorefrontSku[] };

type Row = {
  productId: string | null;
  productName: string;
  prescriptionRequired: boolean;
  total: number | null;
  skuId: string | null;
  skuName: string;
  pzn: string | null;
  dosage: string | null;
  pcs: number | null;
  weight: number | null;
  therapyDuration: number | null;
  unit: string | null;
  standardSellingUnit: number | null;
  price: number;
};

/**
 * A page of a shop's products for its storefront: the organisation's live products that have a
 * shop product in the shop, each with its live SKUs that have a live shop SKU in the shop (priced
 * by it), in creation order. `search` is a case-insensitive substring of the product's or the SKU's
 * name: a product whose name matches shows all its offered SKUs, otherwise only the matching ones.
 * Unknown shop (or another organisation's): not found.
 *
 * Two statements per page (npm run bench -- --scenario catalogue): the shop, the page and its total
 * in one; the page's available quantities (stock.ts) in the other.
 */
export async function listStorefrontProducts(
  organisationId: string,
  shopIdentifier: string,
  filters: { search?: string },
  page: Page,
): Promise<{ items: StorefrontProduct[]; total: number }> {
  const db = await database();
  const term = filters.search?.trim();
  const pattern = term ? `%${escapeLike(term)}%` : null;
  const shop = Prisma.sql`WITH shop AS (SELECT "id" FROM "Shop" WHERE "identifier" = ${shopIdentifier} AND "organisationId" = ${organisationId})`;
  const listed = listedProducts(organisationId, pattern);
  const skuMatches = pattern ? Prisma.sql`AND (m."displayName" ILIKE ${pattern} OR s."displayName" ILIKE ${pattern})` : Prisma.empty;
  // One row per offered SKU of the page (a product without one: one row of nulls); no rows at all
  // when the shop is not the organisation's. The window count is the total before LIMIT.
  const rows = await db.$queryRaw<Row[]>`
    ${shop}, matched AS (
      SELECT p."id", p."displayName", p."prescriptionRequired", p."createdAt", (count(*) OVER ())::int AS "total"
        ${listed}
       ORDER BY p."createdAt", p."id"
       LIMIT ${page.limit} OFFSET ${page.page * page.limit})
    SELECT m."id" AS "productId", m."displayName" AS "productName", m."prescriptionRequired", m."total",
           o."id" AS "skuId", o."displayName" AS "skuName", o."pzn", o."dosage", o."pcs", o."weight", o."therapyDuration",
           o."unit", o."standardSellingUnit", o."price"
      FROM shop
      LEFT JOIN matched m ON true
      -- Per product of the page through the productId index; OFFSET 0 keeps the planner from
      -- flattening it into a hash join of every SKU of the catalogue.
      LEFT JOIN LATERAL (
        SELECT s.*, ss."price"
          FROM "Sku" s JOIN "ShopSku" ss ON ss."skuId" = s."id" AND ss."shopId" = shop."id" AND ss."deletedAt" IS NULL
         WHERE s."productId" = m."id" AND s."deletedAt" IS NULL ${skuMatches}
        OFFSET 0) o ON true
     ORDER BY m."createdAt", m."id", o."createdAt", o."id"`;
  if (rows.length === 0) throw new NotFoundError();

  const skuIds = rows.flatMap((r) => (r.skuId ? [r.skuId] : []));
  const available = await availableQuantities(db, organisationId, skuIds);
  const products = new Map<string, StorefrontProduct>();
  for (const row of rows) {
    if (!row.productId) continue;
    let product = products.get(row.productId);
    if (!product) {
      product = { id: row.productId, displayName: row.productName, prescriptionRequired: row.prescriptionRequired, skus: [] };
      products.set(row.productId, product);
    }
    if (!row.skuId) continue;
    product.skus.push({
      id: row.skuId,
      displayName: row.skuName,
      pzn: row.pzn,
      dosage: row.dosage,
      pcs: row.pcs,
      weight: row.weight,
      therapyDuration: row.therapyDuration,
      unit: row.unit,
      standardSellingUnit: row.standardSellingUnit,
      price: row.price,
      availability: availabilityOf(available.get(row.skuId) ?? 0),
    });
  }
  // Past the last page the statement has no product row to carry the total.
  const total = rows[0].total ?? (await db.$queryRaw<{ total: number }[]>`${shop} SELECT count(*)::int AS "total" ${listed}`)[0].total;
  return { items: [...products.values()], total };
}

/** FROM … WHERE of the listed products (needs the CTE `shop`): a shop product in the shop, the search. */
function listedProducts(organisationId: string, pattern: string | null): Prisma.Sql {
  const matches = pattern
    ? Prisma.sql`AND (p."displayName" ILIKE ${pattern} OR EXISTS (
        SELECT 1 FROM "Sku" s JOIN "ShopSku" ss ON ss."skuId" = s."id" AND ss."shopId" = shop."id" AND ss."deletedAt" IS NULL
         WHERE s."productId" = p."id" AND s."deletedAt" IS NULL AND s."displayName" ILIKE ${pattern}))`
    : Prisma.empty;
  return Prisma.sql`
    FROM "Product" p, shop
   WHERE p."organisationId" = ${organisationId} AND p."deletedAt" IS NULL
     AND EXISTS (SELECT 1 FROM "ShopProduct" sp WHERE sp."shopId" = shop."id" AND sp."productId" = p."id") ${matches}`;
}
