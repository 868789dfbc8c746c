import { randomUUID } from "node:crypto";
import { createApiKey } from "@/server/auth/api-keys";
import type { Db } from "@/server/db/client";

const PRODUCTS = 2_000;
const SKUS_PER_PRODUCT = 5; // 10,000 SKUs, each with a shop SKU and a pharmacy SKU
const BATCH = 2_000;

async function inBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH));
}

/** One organisation with 10,000 SKUs (2,000 products × 5), a shop SKU and a pharmacy SKU for each. */
export async function seedCatalogue(db: Db) {
  const organisation = await db.organisation.create({ data: { displayName: "Bench organisation" } });
  const organisationId = organisation.id;
  const shop = await db.shop.create({ data: { organisationId, identifier: `bench-${randomUUID().slice(0, 8)}`, displayName: "Bench shop" } });
  const pharmacy = await db.pharmacy.create({ data: { organisationId, displayName: "Bench pharmacy" } });

  const products = Array.from({ length: PRODUCTS }, (_, i) => ({
    id: randomUUID(),
    organisationId,
    displayName: `Product ${String(i).padStart(5, "0")}`,
    handle: `product-${i}`,
    prescriptionRequired: i % 3 === 0,
  }));
  const shopProducts = products.map((p, i) => ({ id: randomUUID(), shopId: shop.id, productId: p.id, externalId: `sp-${i}` }));
  const skus = products.flatMap((p, i) =>
    Array.from({ length: SKUS_PER_PRODUCT }, (_, j) => ({
      id: randomUUID(),
      organisationId,
      productId: p.id,
      displayName: `${p.displayName} variant ${j}`,
      pzn: String(10_000_000 + i * SKUS_PER_PRODUCT + j),
      unit: "pcs",
      standardSellingUnit: 1,
      digital: j === 4,
    })),
  );
  const shopSkus = skus.map((s, i) => ({
    shopId: shop.id,
    shopProductId: shopProducts[Math.floor(i / SKUS_PER_PRODUCT)].id,
    skuId: s.id,
    shopVariationId: `variant-${i}`,
    price: 1000 + (i % 500),
  }));
  const pharmacySkus = skus.map((s, i) => ({ pharmacyId: pharmacy.id, skuId: s.id, externalId: `PMS-${i}`, price: 900 + (i % 500), stock: 100 }));

  await inBatches(products, (batch) => db.product.createMany({ data: batch }));
  await inBatches(shopProducts, (batch) => db.shopProduct.createMany({ data: batch }));
  await inBatches(skus, (batch) => db.sku.createMany({ data: batch }));
  await inBatches(shopSkus, (batch) => db.shopSku.createMany({ data: batch }));
  await inBatches(pharmacySkus, (batch) => db.pharmacySku.createMany({ data: batch }));

  const management = await createApiKey({ family: "MANAGEMENT", displayName: "bench", permissions: ["product:read"], organisationId });
  const pharmacyKey = await createApiKey({ family: "PHARMACY", displayName: "bench", permissions: ["stock_read"], organisationId, pharmacyId: pharmacy.id });
  const publicKey = await createApiKey({ family: "PUBLIC", displayName: "bench", permissions: ["product:read"], organisationId });
  return {
    managementKey: management.plaintext,
    pharmacyKey: pharmacyKey.plaintext,
    publicKey: publicKey.plaintext,
    shopIdentifier: shop.identifier,
    skuIds: skus.map((s) => s.id),
    skuCount: skus.length,
  };
}

export type CatalogueContext = Awaited<ReturnType<typeof seedCatalogue>>;

const LIVE_STOCK_ITEMS = 20;

/** The endpoints measured, each a request factory against a running server. */
export function catalogueEndpoints(url: string, ctx: CatalogueContext) {
  const pages = ctx.skuCount / 50;
  return [
    {
      name: "GET /v1/management/products (limit 50)",
      request: (i: number) =>
        fetch(`${url}/v1/management/products?page=${i % (pages / 5)}`, { headers: { "x-api-key": ctx.managementKey } }),
    },
    {
      // 150 products (750 SKUs with their availability) per page: 14 pages of 2,000 products.
      name: "GET /v2/public-api/products/{shop} (limit 150)",
      request: (i: number) =>
        fetch(`${url}/v2/public-api/products/${ctx.shopIdentifier}?market=DE&limit=150&page=${i % 14}`, {
          headers: { "x-api-key": ctx.publicKey },
        }),
    },
    {
      name: `POST /v2/public-api/products/{shop}/live-stock (${LIVE_STOCK_ITEMS} items)`,
      request: (i: number) => {
        const start = (i * LIVE_STOCK_ITEMS) % (ctx.skuCount - LIVE_STOCK_ITEMS);
        const items = ctx.skuIds.slice(start, start + LIVE_STOCK_ITEMS).map((sku_uid) => ({ sku_uid, quantity: 1 }));
        return fetch(`${url}/v2/public-api/products/${ctx.shopIdentifier}/live-stock`, {
          method: "POST",
          headers: { "x-api-key": ctx.publicKey, "content-type": "application/json" },
          body: JSON.stringify({ items }),
        });
      },
    },
    {
      name: "GET /v1/external_pharmacy_api/pharmacy_skus/ (limit 50)",
      request: (i: number) =>
        fetch(`${url}/v1/external_pharmacy_api/pharmacy_skus/?page=${i % pages}`, { headers: { "x-api-key": ctx.pharmacyKey } }),
    },
    {
      name: "GET /v1/external_pharmacy_api/pharmacy_skus/ (limit 200)",
      request: (i: number) =>
        fetch(`${url}/v1/external_pharmacy_api/pharmacy_skus/?limit=200&page=${i % (pages / 4)}`, {
          headers: { "x-api-key": ctx.pharmacyKey },
        }),
    },
  ];
}
