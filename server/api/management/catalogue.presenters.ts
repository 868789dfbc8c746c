import type { ProductWithGraph } from "@/server/domain/catalogue/products";
import type { Sku, ShopSku } from "@/server/db/generated/client";
import { z } from "zod";
import { minorUnitsField, unix, unixField } from "@/server/wire/format";

export const productSchema = z.object({
  uid: z.string(),
  display_name: z.string(),
  skus: z.array(
    z.object({
      uid: z.string(),
      display_name: z.string(),
      pzn: z.string().nullable(),
      shop_skus: z.array(z.object({ uid: z.string(), shop_uid: z.string(), external_id: z.string().nullable() })),
      pharmacy_skus: z.array(
        z.object({ uid: z.string(), pharmacy_uid: z.string(), price: minorUnitsField(), stock: z.number().int(), external_id: z.string().nullable() }),
      ),
    }),
  ),
  shop_products: z.array(z.object({ uid: z.string(), shop_uid: z.string(), external_id: z.string() })),
});

export const skuListEntrySchema = z.object({
  uid: z.string(),
  display_name: z.string(),
  pzn: z.string().nullable(),
  digital: z.boolean(),
  product_uid: z.string(),
});

export const skuSchema = skuListEntrySchema.extend({
  dosage: z.string().nullable(),
  unit: z.string().nullable(),
  pcs: z.number().int().nullable(),
  weight: z.number().nullable(),
  therapy_duration: z.number().int().nullable(),
  standard_selling_unit: z.number().nullable(),
  prescription_name: z.string().nullable(),
  skip_for_pharmacy_orders: z.boolean(),
  created_at: unixField(),
  updated_at: unixField(),
});

export const shopSkuSchema = z.object({
  uid: z.string(),
  shop_uid: z.string(),
  shop_product_uid: z.string(),
  sku_uid: z.string().nullable(),
  shop_sku: z.string().nullable(),
  shop_variation_id: z.string().nullable(),
  price: minorUnitsField(),
  image_url: z.string().nullable(),
  last_synced_stock: z.number().int().nullable(),
  created_at: unixField(),
  updated_at: unixField(),
});

export function presentProduct(product: ProductWithGraph): z.infer<typeof productSchema> {
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

export function presentSkuListEntry(sku: Sku): z.infer<typeof skuListEntrySchema> {
  return { uid: sku.id, display_name: sku.displayName, pzn: sku.pzn, digital: sku.digital, product_uid: sku.productId };
}

export function presentSku(sku: Sku): z.infer<typeof skuSchema> {
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

export function presentShopSku(shopSku: ShopSku): z.infer<typeof shopSkuSchema> {
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
