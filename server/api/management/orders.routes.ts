import { z } from "zod";
import { searchTerm, text } from "@/server/api/schemas";
import { createOrder } from "@/server/domain/orders/create-order";
import { getOrder, listOrders } from "@/server/domain/orders/queries";
import { route } from "@/server/rest/kit";
import { reply } from "@/server/rest/responses";
import { paginated, queryInt } from "@/server/rest/validation";
import { presentManagementOrder } from "./order-presenters";
import { createOrderSchema, toOrderIntake } from "./order-intake.schemas";

const unixSeconds = () => queryInt().pipe(z.number().int().min(0).max(253_402_300_799)).optional();
/** Inclusive bounds on Unix seconds: "to" covers the whole second. */
const from = (s: number | undefined) => (s === undefined ? undefined : new Date(s * 1000));
const to = (s: number | undefined) => (s === undefined ? undefined : new Date(s * 1000 + 999));

export const orderRoutes = [
  route({
    method: "GET",
    path: "/orders",
    summary: "List orders, newest first",
    permission: "order:read",
    paginated: {},
    query: z.object({
      created_at_from: unixSeconds(),
      created_at_to: unixSeconds(),
      updated_at_from: unixSeconds(),
      updated_at_to: unixSeconds(),
      shop_identifier: text().optional(),
      shop_order_external_id: text().optional(),
      search: searchTerm(),
    }),
    async handle({ db, principal, page, query }) {
      const { items, total } = await listOrders(
        db,
        principal.organisationId,
        {
          createdFrom: from(query.created_at_from),
          createdTo: to(query.created_at_to),
          updatedFrom: from(query.updated_at_from),
          updatedTo: to(query.updated_at_to),
          shopIdentifier: query.shop_identifier,
          shopOrderExternalId: query.shop_order_external_id,
          search: query.search,
        },
        page,
      );
      const canRead = principal.permissions.has("prescription:read");
      return reply(200, paginated(items.map((o) => presentManagementOrder(o, canRead)), total, page, "orders"));
    },
  }),
  route({
    method: "GET",
    path: "/orders/:order_uid",
    summary: "One order",
    permission: "order:read",
    async handle({ db, principal, params }) {
      const order = await getOrder(db, principal.organisationId, params.order_uid);
      return reply(200, presentManagementOrder(order, principal.permissions.has("prescription:read")));
    },
  }),
  route({
    method: "POST",
    path: "/orders",
    summary: "Create an order with at least one fulfillment (strictly once per external_id)",
    permission: "order:write",
    body: createOrderSchema,
    async handle({ db, principal, body }) {
      const orderId = await createOrder(db, principal.organisationId, toOrderIntake(body), {
        type: "API_KEY",
        apiKeyId: principal.keyId,
      });
      const order = await getOrder(db, principal.organisationId, orderId);
      return reply(201, presentManagementOrder(order, principal.permissions.has("prescription:read")));
    },
  }),
];
