/** Inputs of the stock procedures (both portals); the stock page validates its fields with the same schemas. */
import { z } from "zod";
import { TRPC_CSV_TEXT_MAX_CHARS } from "@/server/http/body-limits";
import { amount, count, searchTerm, text, uid } from "@/server/wire/schemas";

export const PHARMACY_SKU_PAGE_LIMIT = 100;
export const STOCK_MOVEMENTS_LIMIT = 50;

const pharmacyUid = uid().optional();

export const listPharmacySkusInput = z.object({
  pharmacyUid,
  search: searchTerm(),
  /** Only SKUs with this stock or less (the admin tool's "running out"). */
  maxStock: z.number().int().min(0).max(1_000_000_000).optional(),
  page: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(PHARMACY_SKU_PAGE_LIMIT).default(25),
});

/** The editable fields, with the REST PATCH's limits (stock and price: integers ≥ 0; price in cents). */
export const pharmacySkuFields = { stock: count(), price: amount(), externalId: text() };

export const updatePharmacySkuInput = z.object({
  pharmacyUid,
  pharmacySkuUid: uid(),
  stock: pharmacySkuFields.stock.optional(),
  price: pharmacySkuFields.price.optional(),
  externalId: pharmacySkuFields.externalId.optional(),
});

export const stockMovementsInput = z.object({
  pharmacyUid,
  pharmacySkuUid: uid(),
  limit: z.number().int().min(1).max(STOCK_MOVEMENTS_LIMIT).default(10),
});

/** An assortment CSV file as its text (the browser reads the file: UTF-8), bounded by its own body cap (server/trpc/handler.ts). */
export const importAssortmentInput = z.object({
  pharmacyUid,
  csv: z.string().max(TRPC_CSV_TEXT_MAX_CHARS),
});

export const exportAssortmentInput = z.object({
  pharmacyUid,
  separator: z.enum([",", ";"]).default(","),
});
