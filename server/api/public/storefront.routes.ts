import { z } from "zod";
import { checkLiveStock } from "@/server/domain/storefront/live-stock";
import { prescriptionOrderStatuses } from "@/server/domain/storefront/order-status";
import { listStorefrontProducts } from "@/server/domain/storefront/products";
import { reserveStock } from "@/server/domain/storefront/reserve";
import { standardErrorSchema, upstreamErrorSchema } from "@/server/rest/error-schemas";
import { route } from "@/server/rest/kit";
import { reply } from "@/server/rest/responses";
import { paginated, paginatedSchema } from "@/server/wire/format";
import {
  insufficientStockSchema,
  liveStockSchema,
  prescriptionOrderStatusSchema,
  presentLiveStock,
  presentPrescriptionOrderStatus,
  presentReservation,
  presentStorefrontProduct,
  reservationSchema,
  storefrontProductSchema,
} from "./storefront.presenters";
import { orderStatusQuery, productsQuery, stockItemsBody, toStockRequests } from "./storefront.schemas";

/** The spec's Limits: Public API products are capped at 150 per page. */
const PRODUCTS_MAX_LIMIT = 150;

const STOCK_ITEMS_EXAMPLE = { items: [{ sku_uid: "3c1e5a2b-7d4f-4e8a-9b6c-1d2e3f4a5b6c", quantity: 2 }] };

/** Products, live stock, reservations and order status of one shop of the key's organisation (G26). */
export const storefrontRoutes = [
  route({
    method: "GET",
    path: "/products/:shop_identifier",
    summary: "The shop's products with their SKUs, prices (cents) and availability (High, Medium, Low, Unavailable)",
    permission: "product:read",
    paginated: { maxLimit: PRODUCTS_MAX_LIMIT },
    query: productsQuery,
    examples: { query: { market: "DE", search: "ibu" } },
    responses: { 200: paginatedSchema(storefrontProductSchema) },
    async handle({ principal, params, query, page }) {
      const { items, total } = await listStorefrontProducts(principal.organisationId, params.shop_identifier, { search: query.search }, page);
      return reply(200, paginated(items.map(presentStorefrontProduct), total, page));
    },
  }),
  route({
    method: "POST",
    path: "/products/:shop_identifier/live-stock",
    summary: "Whether each {sku_uid, quantity} can be served now, counting stock held by live reservations",
    permission: "product:read",
    body: stockItemsBody,
    successStatus: 200,
    examples: { body: STOCK_ITEMS_EXAMPLE },
    responses: { 200: z.object({ data: z.array(liveStockSchema) }) },
    async handle({ principal, params, body }) {
      const entries = await checkLiveStock(principal.organisationId, params.shop_identifier, toStockRequests(body));
      return reply(200, { data: entries.map(presentLiveStock) });
    },
  }),
  route({
    method: "POST",
    path: "/products/:shop_identifier/reservation",
    summary:
      "Reserve quantities in a draft order for 15 minutes (all or nothing; 409 when the stock cannot cover a line); a Shopify shop's reservation is also a Shopify draft order (502/503 when Shopify refuses or cannot be reached)",
    permission: "create_prescription_checkout",
    body: stockItemsBody,
    examples: { body: STOCK_ITEMS_EXAMPLE },
    responses: { 201: reservationSchema, 409: insufficientStockSchema, 502: upstreamErrorSchema, 503: z.union([upstreamErrorSchema, standardErrorSchema]) },
    async handle({ principal, params, body }) {
      return reply(201, presentReservation(await reserveStock(principal.organisationId, params.shop_identifier, toStockRequests(body))));
    },
  }),
  route({
    method: "GET",
    path: "/orders/:shop_identifier",
    summary: "Order status by prescription uids (comma-separated, at most 50); uids of other shops are left out",
    permission: "order:read",
    query: orderStatusQuery,
    examples: { query: { prescription_uids: "6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b,7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d" } },
    responses: { 200: z.object({ data: z.array(prescriptionOrderStatusSchema) }) },
    async handle({ principal, params, query }) {
      const statuses = await prescriptionOrderStatuses(principal.organisationId, params.shop_identifier, query.prescription_uids);
      return reply(200, { data: statuses.map(presentPrescriptionOrderStatus) });
    },
  }),
];
