import { z } from "zod";
import { countryCode, int4, searchTerm, uid } from "@/server/wire/schemas";

/** At most this many items per live-stock check or reservation (docs/decisions/intake.md#storefront-products-stock-reservations-order-status). */
export const MAX_STOCK_ITEMS = 100;
/** G26: at most 50 prescription uids per order status request. */
export const MAX_PRESCRIPTION_UIDS = 50;

export const productsQuery = z.object({
  // The country the storefront sells to (ISO 3166-1 alpha-2, G26's "DE"); required, validated.
  market: z.string().trim().toUpperCase().pipe(countryCode()),
  search: searchTerm(),
});

const stockItem = z.object({ sku_uid: uid(), quantity: int4({ min: 1 }) });

/** {items: [{sku_uid, quantity}]}, live stock and reservation alike. */
export const stockItemsBody = z.object({ items: z.array(stockItem).min(1).max(MAX_STOCK_ITEMS) });

export const toStockRequests = (body: z.output<typeof stockItemsBody>) =>
  body.items.map((item) => ({ skuId: item.sku_uid, quantity: item.quantity }));

export const orderStatusQuery = z.object({
  prescription_uids: z
    .string({ error: "This field is required." })
    .transform((value) => value.split(",").map((s) => s.trim()).filter(Boolean))
    .pipe(
      z
        .array(uid())
        .min(1, "Name at least one prescription uid.")
        .max(MAX_PRESCRIPTION_UIDS, `At most ${MAX_PRESCRIPTION_UIDS} prescription uids.`),
    ),
});
