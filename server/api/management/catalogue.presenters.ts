import type { ProductWithGraph } from "@/server/domain/catalogue/products";
import type { Sku, ShopSku } from "@/server/db/generated/client";
import { unix } from "@/server/wire/format";

export function presentProduct(product: ProductWithGraph) {
  return {
    uid: product.id,
    display_name: product.displayName,
    skus: product.skus.map((sku) => ({
      uid: sku.id,
      display_name: sku.displayName,
      pzn: sku.pzn,
      shop_skus: sku.shopSkus.map((s) => ({ uid: s.id, shop_uid: s.shopId, external_id: s.shopVariationId })),
      pharmacy_skus: sku.pharmacySkus.map((p) => ({
        uid: p.id,
        pharmacy_uid: p.pharmacyId,
        price: p.price,
        stock: p.stock,
        external_id: p.externalId,
      })),
    })),
    shop_products: product.shopProducts.map((sp) => ({ uid: sp.id, shop_uid: sp.shopId, external_id: sp.externalId })),
  };
}

export function presentSkuListEntry(sku: Sku) {
  return { uid: sku.id, display_name: sku.displayName, pzn: sku.pzn, digital: sku.digital, product_uid: sku.productId };
}

export function presentSku(sku: Sku) {
  return {
    ...presentSkuListEntry(sku),
    dosage: sku.dosage,
    unit: sku.unit,
    pcs: sku.pcs,
    weight: sku.weight,
    therapy_duration: sku.therapyDuration,
    standard_selling_unit: sku.standardSellingUnit,
    prescription_name: sku.prescriptionName,
    skip_for_pharmacy_orders: sku.skipForPharmacyOrders,
    created_at: unix(sku.createdAt),
    updated_at: unix(sku.updatedAt),
  };
}

export function presentShopSku(shopSku: ShopSku) {
  return {
    uid: shopSku.id,
    shop_uid: shopSku.shopId,
    shop_product_uid: shopSku.shopProductId,
    sku_uid: shopSku.skuId,
    shop_sku: shopSku.shopSku,
    shop_variation_id: shopSku.shopVariationId,
    price: shopSku.price,
    image_url: shopSku.imageUrl,
    last_synced_stock: shopSku.lastSyncedStock,
    created_at: unix(shopSku.createdAt),
    updated_at: unix(shopSku.updatedAt),
  };
}
