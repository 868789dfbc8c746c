/** Inputs of the admin tool's assortment procedures, shared by the router and the "Add SKUs" form. */
import { z } from "zod";
import { ADD_TO_ASSORTMENT_MAX } from "@/server/domain/catalogue/assortment-limits";
import { searchTerm, uid } from "@/server/wire/schemas";
import { pharmacySkuFields } from "./pharmacy-skus.schemas";

export const CANDIDATES_PAGE_LIMIT = 50;

export const assortmentCandidatesInput = z.object({
  pharmacyUid: uid(),
  search: searchTerm(),
  page: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(CANDIDATES_PAGE_LIMIT).default(10),
});

/** One SKU to add, with the values the pharmacy SKU starts with (the stock page's limits). */
export const assortmentEntry = z.object({
  skuUid: uid(),
  externalId: pharmacySkuFields.externalId,
  price: pharmacySkuFields.price,
  stock: pharmacySkuFields.stock,
});

export const addToAssortmentInput = z.object({
  pharmacyUid: uid(),
  entries: z.array(assortmentEntry).min(1).max(ADD_TO_ASSORTMENT_MAX),
});

export const removeFromAssortmentInput = z.object({ pharmacyUid: uid(), pharmacySkuUid: uid() });
