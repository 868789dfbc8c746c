import type { Pharmacy, PharmacySku, Product, Sku } from "@/server/db/generated/client";
import { unix, unixOrNull } from "@/server/api/wire";

export type PharmacySkuWithSku = PharmacySku & { sku: Sku & { product: Product } };

export function presentPharmacySku(row: PharmacySkuWithSku) {
  return {
    uid: row.id,
    external_id: row.externalId,
    price: row.price,
    stock: row.stock,
    pharmacy: row.pharmacyId,
    sku: {
      uid: row.sku.id,
      display_name: row.sku.displayName,
      pzn: row.sku.pzn,
      product_uid: row.sku.productId,
      product_display_name: row.sku.product.displayName,
      standard_selling_unit: row.sku.standardSellingUnit,
      unit: row.sku.unit,
      product_handle: row.sku.product.handle,
      digital: row.sku.digital,
    },
    created_at: unix(row.createdAt),
    updated_at: unix(row.updatedAt),
    deleted_at: unixOrNull(row.deletedAt),
  };
}

export const presentPharmacyRef = (pharmacy: Pick<Pharmacy, "id" | "displayName">) => ({
  uid: pharmacy.id,
  display_name: pharmacy.displayName,
});
