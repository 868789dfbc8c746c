import type { PharmacySku, Product, Sku } from "@/server/db/generated/client";
import { unix, unixOrNull } from "@/server/wire/format";

/** What presentPharmacySku shows: a pharmacy SKU with its SKU and product (a Prisma row with both included will do). */
export type PharmacySkuWithSku = Pick<PharmacySku, "id" | "externalId" | "price" | "stock" | "pharmacyId" | "createdAt" | "updatedAt" | "deletedAt"> & {
  sku: Pick<Sku, "id" | "displayName" | "pzn" | "productId" | "standardSellingUnit" | "unit" | "digital"> & {
    product: Pick<Product, "displayName" | "handle">;
  };
};

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

