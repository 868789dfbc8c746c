import type { PharmacySku, Product, Sku } from "@/server/db/generated/client";
import { z } from "zod";
import { minorUnitsField, unix, unixField, unixOrNull } from "@/server/wire/format";

export const pharmacySkuSchema = z.object({
  uid: z.string(),
  external_id: z.string().nullable(),
  price: minorUnitsField(),
  stock: z.number().int(),
  pharmacy: z.string().describe("The pharmacy's uid"),
  sku: z.object({
    uid: z.string(),
    display_name: z.string(),
    pzn: z.string().nullable(),
    product_uid: z.string(),
    product_display_name: z.string(),
    standard_selling_unit: z.number().nullable(),
    unit: z.string().nullable(),
    product_handle: z.string().nullable(),
    digital: z.boolean(),
  }),
  created_at: unixField(),
  updated_at: unixField(),
  deleted_at: unixField().nullable(),
});

/** What presentPharmacySku shows: a pharmacy SKU with its SKU and product (a Prisma row with both included will do). */
export type PharmacySkuWithSku = Pick<PharmacySku, "id" | "externalId" | "price" | "stock" | "pharmacyId" | "createdAt" | "updatedAt" | "deletedAt"> & {
  sku: Pick<Sku, "id" | "displayName" | "pzn" | "productId" | "standardSellingUnit" | "unit" | "digital"> & {
    product: Pick<Product, "displayName" | "handle">;
  };
};

export function presentPharmacySku(row: PharmacySkuWithSku): z.infer<typeof pharmacySkuSchema> {
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

