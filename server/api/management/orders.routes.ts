import { z } from "zod";
import { fromUnixSeconds as from, searchTerm, text, toUnixSecondsInclusive as to, unixSecondsQuery as unixSeconds } from "@/server/wire/schemas";
import { addFulfillmentToOrder, cancelFulfillment, updateOrder } from "@/server/domain/orders/change-order";
import { createOrder } from "@/server/domain/orders/create-order";
import { getOrder, listOrders, type OrderWithGraph } from "@/server/domain/orders/queries";
import { route } from "@/server/rest/kit";
import { managementExamples as examples } from "./examples";
import type { Context } from "@/server/rest/types";
import { reply } from "@/server/rest/responses";
import { conflictErrorSchema, unprocessableErrorSchema } from "@/server/rest/error-schemas";
import { paginated, paginatedSchema } from "@/server/wire/format";
import { managementOrderSchema, presentManagementOrder } from "./order.presenters";
import { createOrderSchema, fulfillmentSchema, toFulfillmentIntake, toOrderIntake, updateOrderSchema } from "./order-intake.schemas";


/** Every order command answers with the order as GET /orders/{uid} shows it: read by its id, unless the command could tell. */
async function presentOrder(ctx: Context<unknown, unknown>, order: string | OrderWithGraph, status: number) {
  const shown = typeof order === "string" ? await getOrder(ctx.principal.organisationId, order) : order;
  return reply(status, presentManagementOrder(shown, ctx.principal.permissions.has("prescription:read")));
}


export const orderRoutes = [
  route({
    method: "GET",
    path: "/orders",
    examples: { responses: { 200: examples.orders } },
    responses: { 200: paginatedSchema(managementOrderSchema, "orders") },
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
    async handle({ principal, page, query }) {
      const { items, total } = await listOrders(
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
    // GET and PATCH share one path template (OpenAPI allows no two that differ only by a parameter's
    // name); each says which identifier it takes, as the spec's {order_uid} and {order_external_id} do.
    path: "/orders/:order_id",
    pathParams: { order_id: "The order's `uid` (the spec's `{order_uid}`)." },
    examples: { responses: { 200: examples.order } },
    responses: { 200: managementOrderSchema },
    summary: "One order",
    permission: "order:read",
    handle: (ctx) => presentOrder(ctx, ctx.params.order_id, 200),
  }),
  route({
    method: "POST",
    path: "/orders",
    examples: { body: examples.createOrderBody, responses: { 201: examples.order } },
    responses: { 201: managementOrderSchema, 409: conflictErrorSchema, 422: unprocessableErrorSchema },
    summary:
      "Create an order with at least one fulfillment (strictly once per external_id; a retry answers 409 with order_uid). A fulfillment no pharmacy can take now is accepted as `pharmacy not found` and routed when stock appears",
    permission: "order:write",
    body: createOrderSchema,
    async handle(ctx) {
      const created = await createOrder(ctx.principal.organisationId, toOrderIntake(ctx.body), ctx.actor);
      return presentOrder(ctx, created.shown ?? created.id, 201);
    },
  }),
  route({
    method: "POST",
    path: "/orders/:order_external_id/fulfillments",
    examples: { body: examples.fulfillmentBody, responses: { 201: examples.order } },
    responses: { 201: managementOrderSchema, 409: conflictErrorSchema, 422: unprocessableErrorSchema },
    summary: "Add a fulfillment to an order (fulfillments are immutable: a repeated external_id is 409)",
    permission: "order:write",
    body: fulfillmentSchema,
    async handle(ctx) {
      const { principal, params, body } = ctx;
      const orderId = await addFulfillmentToOrder(principal.organisationId, params.order_external_id, toFulfillmentIntake(body), ctx.actor);
      return presentOrder(ctx, orderId, 201);
    },
  }),
  route({
    method: "PATCH",
    path: "/orders/:order_id",
    pathParams: { order_id: "Your `external_id` of the order, as sent when creating it (the spec's `{order_external_id}`)." },
    examples: {
      body: { priority: 1, customer: { email: "erika@example.com" }, shipping_cost: { amount: 0, currency: "EUR" } },
      responses: { 200: examples.order },
    },
    responses: { 200: managementOrderSchema },
    summary: "Update the item-free fields: addresses, priority, customer email, shipping cost",
    permission: "order:write",
    body: updateOrderSchema,
    async handle(ctx) {
      const { principal, params, body } = ctx;
      const orderId = await updateOrder(
        principal.organisationId,
        params.order_id,
        {
          deliveryAddress: body.delivery_address,
          invoiceAddress: body.invoice_address,
          priority: body.priority,
          customerEmail: body.customer?.email,
          shippingCost: body.shipping_cost,
        },
        ctx.actor,
      );
      return presentOrder(ctx, orderId, 200);
    },
  }),
  route({
    method: "POST",
    path: "/orders/:order_external_id/fulfillments/:fulfillment_external_id/cancel",
    responses: { 200: managementOrderSchema, 409: conflictErrorSchema },
    summary: "Cancel a fulfillment while it is cancellable (its pharmacy has not started preparing it)",
    permission: "order:write",
    successStatus: 200,
    async handle(ctx) {
      const { principal, params } = ctx;
      const orderId = await cancelFulfillment(principal.organisationId, params.order_external_id, params.fulfillment_external_id, ctx.actor);
      return presentOrder(ctx, orderId, 200);
    },
  }),
];
