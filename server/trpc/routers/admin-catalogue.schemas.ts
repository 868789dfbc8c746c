/**
 * Inputs of the admin tool's catalogue procedures, shared by the router and the forms: the
 * Management API's limits (server/api/management/catalogue.routes.ts) in the portal's camelCase.
 */
import { z } from "zod";
import { amount, count, httpUrl, int4, searchTerm, text, uid } from "@/server/wire/schemas";

export const CATALOGUE_PAGE_LIMIT = 100;

const paging = {
  search: searchTerm(),
  page: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(CATALOGUE_PAGE_LIMIT).default(25),
};

export const byUidInput = z.object({ uid: uid() });

export const listProductsInput = z.object(paging);

/** Empty text is no value: a cleared optional field is stored as null. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .optional()
    .transform((v) => (v === "" ? null : v));

export const productFields = {
  displayName: text(),
  handle: optionalText(255),
  prescriptionRequired: z.boolean(),
};

export const createProductInput = z.object(productFields);
export const updateProductInput = z.object({
  uid: uid(),
  displayName: productFields.displayName.optional(),
  handle: productFields.handle,
  prescriptionRequired: productFields.prescriptionRequired.optional(),
});

export const addShopProductInput = z.object({ productUid: uid(), shopUid: uid(), externalId: text() });

export const listSkusInput = z.object(paging);

/** What the catalogue forms check for duplicates as one types (a warning, not a refusal). */
export const duplicatesInput = z.object({
  handle: z.string().max(255).optional(),
  pzn: z.string().max(64).optional(),
  exceptProductUid: uid().optional(),
  exceptSkuUid: uid().optional(),
});

const optionalSkuFields = {
  pzn: optionalText(64),
  dosage: optionalText(255),
  unit: optionalText(32),
  pcs: count().nullable().optional(),
  weight: z.number().min(0).nullable().optional(),
  therapyDuration: count().nullable().optional(),
  standardSellingUnit: z.number().positive().nullable().optional(),
  prescriptionName: optionalText(255),
  digital: z.boolean().optional(),
  skipForPharmacyOrders: z.boolean().optional(),
};

export const createSkuInput = z.object({ productUid: uid(), displayName: text(), ...optionalSkuFields });
export const updateSkuInput = z.object({ uid: uid(), displayName: text().optional(), ...optionalSkuFields });

export const listShopSkusInput = z.object({ shopUid: uid().optional(), ...paging });

const shopSkuFields = {
  skuUid: uid().nullable().optional(),
  shopSku: optionalText(255),
  shopVariationId: optionalText(255),
  imageUrl: httpUrl().nullable().optional(),
  lastSyncedStock: int4().nullable().optional(),
};

export const createShopSkuInput = z.object({ shopUid: uid(), shopProductUid: uid(), price: amount(), ...shopSkuFields });
export const updateShopSkuInput = z.object({ uid: uid(), price: amount().optional(), ...shopSkuFields });
