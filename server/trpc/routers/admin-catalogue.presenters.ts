/** The admin tool's shapes of the catalogue: camelCase, uids, prices in cents, dates as Unix seconds. */
import type { Product, ShopProduct, ShopSku, Sku } from "@/server/db/generated/client";
import type { ProductWithGraph } from "@/server/domain/catalogue/products";
import type { listShopSkusWithNames } from "@/server/domain/catalogue/shop-skus";
import { unix } from "@/server/wire/format";

export const presentProductEntry = (p: Product & { skus: unknown[]; shopProducts: unknown[] }) => ({
  uid: p.id,
  displayName: p.displayName,
  handle: p.handle,
  prescriptionRequired: p.prescriptionRequired,
  skuCount: p.skus.length,
  shopProductCount: p.shopProducts.length,
  createdAt: unix(p.createdAt),
});

export const presentSku = (s: Sku) => ({
  uid: s.id,
  productUid: s.productId,
  displayName: s.displayName,
  pzn: s.pzn,
  digital: s.digital,
  dosage: s.dosage,
  unit: s.unit,
  pcs: s.pcs,
  weight: s.weight,
  therapyDuration: s.therapyDuration,
  standardSellingUnit: s.standardSellingUnit,
  prescriptionName: s.prescriptionName,
  skipForPharmacyOrders: s.skipForPharmacyOrders,
  updatedAt: unix(s.updatedAt),
});

export const presentShopSku = (s: ShopSku) => ({
  uid: s.id,
  shopUid: s.shopId,
  shopProductUid: s.shopProductId,
  skuUid: s.skuId,
  shopSku: s.shopSku,
  shopVariationId: s.shopVariationId,
  /** Cents. */
  price: s.price,
  imageUrl: s.imageUrl,
  lastSyncedStock: s.lastSyncedStock,
  updatedAt: unix(s.updatedAt),
});

export const presentShopProduct = (s: ShopProduct) => ({ uid: s.id, shopUid: s.shopId, externalId: s.externalId });

/** A product with its live SKUs, each with its shop SKUs and pharmacy SKUs, and its shop listings. */
export const presentProductDetail = (p: ProductWithGraph) => ({
  ...presentProductEntry(p),
  skus: p.skus.map((s) => ({
    ...presentSku(s),
    shopSkus: s.shopSkus.map(presentShopSku),
    pharmacySkus: s.pharmacySkus.map((ps) => ({ uid: ps.id, pharmacyUid: ps.pharmacyId, externalId: ps.externalId, price: ps.price, stock: ps.stock })),
  })),
  shopProducts: p.shopProducts.map(presentShopProduct),
});

type NamedShopSku = Awaited<ReturnType<typeof listShopSkusWithNames>>["items"][number];

export const presentShopSkuEntry = (s: NamedShopSku) => ({
  ...presentShopSku(s),
  sku: s.sku ? { displayName: s.sku.displayName, pzn: s.sku.pzn } : null,
  shopProduct: { externalId: s.shopProduct.externalId, productUid: s.shopProduct.product.id, productName: s.shopProduct.product.displayName },
});
