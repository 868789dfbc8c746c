import { checkLiveStock } from "@/server/domain/storefront/live-stock";
import { prescriptionOrderStatuses } from "@/server/domain/storefront/order-status";
import { listStorefrontProducts } from "@/server/domain/storefront/products";
import { reserveStock } from "@/server/domain/storefront/reserve";
import { route } from "@/server/rest/kit";
import { reply } from "@/server/rest/responses";
import { paginated } from "@/server/wire/format";
import {
  presentLiveStock,
  presentPrescriptionOrderStatus,
  presentReservation,
  presentStorefrontProduct,
} from "./storefront.presenters";
import { orderStatusQuery, productsQuery, stockItemsBody, toStockRequests } from "./storefront.schemas";

/** The spec's Limits: Public API products are capped at 150 per page. */
const PRODUCTS_MAX_LIMIT = 150;

/** Products, live stock, reservations and order status of one shop of the key's organisation (G26). */
export const storefrontRoutes = [
  route({
    method: "GET",
    path: "/products/:shop_identifier",
    summary: "The shop's products with their SKUs, prices (cents) and availability (High, Medium, Low, Unavailable)",
    permission: "product:read",
    paginated: { maxLimit: PRODUCTS_MAX_LIMIT },
    query: productsQuery,
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
    async handle({ principal, params, body }) {
      const entries = await checkLiveStock(principal.organisationId, params.shop_identifier, toStockRequests(body));
      return reply(200, { data: entries.map(presentLiveStock) });
    },
  }),
  route({
    method: "POST",
    path: "/products/:shop_identifier/reservation",
    summary: "Reserve quantities in a draft order for 15 minutes (all or nothing; 409 when the stock cannot cover a line)",
    permission: "create_prescription_checkout",
    body: stockItemsBody,
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
    async handle({ principal, params, query }) {
      const statuses = await prescriptionOrderStatuses(principal.organisationId, params.shop_identifier, query.prescription_uids);
      return reply(200, { data: statuses.map(presentPrescriptionOrderStatus) });
    },
  }),
];
