import { z } from "zod";
import { amount, count, text, uid } from "@/server/wire/schemas";
import { listPharmacySkus, updatePharmacySku, type PharmacySkuChanges } from "@/server/domain/catalogue/pharmacy-skus";
import { route } from "@/server/rest/kit";
import { pharmacyExamples as examples } from "./examples";
import type { Context } from "@/server/rest/types";
import { reply } from "@/server/rest/responses";
import { paginated, paginatedSchema } from "@/server/wire/format";
import { pharmacySkuSchema, presentPharmacySku } from "./pharmacy-sku.presenters";

const scopeQuery = z.object({ pharmacy_uid: uid().optional() });

async function update(ctx: Context<unknown, unknown>, changes: PharmacySkuChanges) {
  const row = await updatePharmacySku(ctx.pharmacy, ctx.params.pharmacy_sku_uid, changes, ctx.actor);
  return reply(200, presentPharmacySku(row));
}

export const pharmacySkuRoutes = [
  route({
    method: "GET",
    path: "/pharmacy_skus",
    examples: { responses: { 200: examples.pharmacySkus } },
    responses: { 200: paginatedSchema(pharmacySkuSchema) },
    summary: "List the pharmacy's SKUs with price and stock",
    permission: "stock_read",
    paginated: {},
    query: scopeQuery,
    async handle({ pharmacy, page }) {
      const { items, total } = await listPharmacySkus(pharmacy, page);
      return reply(200, paginated(items.map(presentPharmacySku), total, page));
    },
  }),
  route({
    method: "PATCH",
    path: "/pharmacy_skus/:pharmacy_sku_uid",
    examples: { body: { price: 399, stock: 42, external_id: "PMS-1" }, responses: { 200: examples.pharmacySku } },
    responses: { 200: pharmacySkuSchema },
    summary: "Update price, stock and external id of a pharmacy SKU",
    permission: "stock_write",
    query: scopeQuery,
    body: z.object({ price: amount().optional(), stock: count().optional(), external_id: text().optional() }),
    handle: (ctx) => update(ctx, { price: ctx.body.price, stock: ctx.body.stock, externalId: ctx.body.external_id }),
  }),
  route({
    method: "PATCH",
    path: "/pharmacy_skus/:pharmacy_sku_uid/stock",
    examples: { body: { stock: 42 }, responses: { 200: examples.pharmacySku } },
    responses: { 200: pharmacySkuSchema },
    summary: "Set the stock of a pharmacy SKU",
    permission: "stock_write",
    query: scopeQuery,
    body: z.object({ stock: count() }),
    handle: (ctx) => update(ctx, { stock: ctx.body.stock }),
  }),
  route({
    method: "PATCH",
    path: "/pharmacy_skus/:pharmacy_sku_uid/external_id",
    examples: { body: { external_id: "PMS-1" }, responses: { 200: examples.pharmacySku } },
    responses: { 200: pharmacySkuSchema },
    summary: "Set the pharmacy's own id of a pharmacy SKU",
    permission: "stock_write",
    query: scopeQuery,
    body: z.object({ external_id: text() }),
    handle: (ctx) => update(ctx, { externalId: ctx.body.external_id }),
  }),
];
