import { z } from "zod";
import { fromUnixSeconds, httpUrl, searchTerm, toUnixSecondsInclusive, uid, unixSecondsQuery } from "@/server/wire/schemas";
import { changePharmacyOrderStatus } from "@/server/domain/pharmacy-orders/change-status";
import { CARRIERS, completePharmacyOrder } from "@/server/domain/pharmacy-orders/complete";
import { getPharmacyOrderDetail, getPharmacyOrderView, listPharmacyOrdersJson } from "@/server/domain/pharmacy-orders/queries";
import { PHARMACY_ORDER_STATUSES, SETTABLE_PHARMACY_ORDER_STATUSES } from "@/server/domain/pharmacy-orders/statuses";
import { route } from "@/server/rest/kit";
import { pharmacyExamples as examples } from "./examples";
import { reply, replyJsonText } from "@/server/rest/responses";
import { conflictErrorSchema } from "@/server/rest/error-schemas";
import { paginatedJson, paginatedSchema } from "@/server/wire/format";
import {
  completeOrderErrorSchema,
  pharmacyOrderDetailSchema,
  pharmacyOrderSchema,
  presentPharmacyOrder,
  presentPharmacyOrderDetail,
} from "./pharmacy-order.presenters";

const scopeQuery = { pharmacy_uid: uid().optional() };

export const pharmacyOrderRoutes = [
  route({
    method: "GET",
    path: "/pharmacy_orders",
    examples: { responses: { 200: examples.pharmacyOrders } },
    responses: { 200: paginatedSchema(pharmacyOrderSchema) },
    summary: "List the pharmacy's orders, newest first",
    permission: "orders_read",
    paginated: {},
    query: z.object({
      ...scopeQuery,
      status: z.enum(PHARMACY_ORDER_STATUSES).optional(),
      search: searchTerm(),
      start_date: unixSecondsQuery(),
      end_date: unixSecondsQuery(),
    }),
    async handle({ pharmacy, page, query }) {
      const filter = {
        pharmacyIds: [pharmacy.id],
        status: query.status,
        search: query.search?.trim() || undefined,
        createdFrom: fromUnixSeconds(query.start_date),
        createdTo: toUnixSecondsInclusive(query.end_date),
      };
      const { entriesJson, total } = await listPharmacyOrdersJson(filter, page);
      return replyJsonText(200, paginatedJson(entriesJson, total, page));
    },
  }),
  route({
    method: "GET",
    path: "/pharmacy_orders/:pharmacy_order_uid",
    examples: { responses: { 200: examples.pharmacyOrderDetail } },
    responses: { 200: pharmacyOrderDetailSchema },
    summary: "One pharmacy order with patient, doctor, prescription file, shipments and payouts",
    permission: "orders_read",
    query: z.object(scopeQuery),
    async handle({ pharmacy, params }) {
      return reply(200, presentPharmacyOrderDetail(await getPharmacyOrderDetail(pharmacy.id, params.pharmacy_order_uid)));
    },
  }),
  route({
    method: "PATCH",
    path: "/pharmacy_orders/:pharmacy_order_uid/status",
    examples: { body: { status: "on-hold", comment: "Waiting for the wholesaler." }, responses: { 200: examples.pharmacyOrder } },
    responses: { 200: pharmacyOrderSchema, 409: conflictErrorSchema },
    summary: "Change the status (completed only through complete_order; on-hold needs a comment)",
    permission: "orders_write",
    query: z.object(scopeQuery),
    body: z.object({ status: z.enum(SETTABLE_PHARMACY_ORDER_STATUSES), comment: z.string().max(5000).nullable().optional() }),
    async handle(ctx) {
      const { pharmacy, params, body } = ctx;
      await changePharmacyOrderStatus(pharmacy.id, params.pharmacy_order_uid, { status: body.status, comment: body.comment }, ctx.actor);
      return reply(200, presentPharmacyOrder(await getPharmacyOrderView(pharmacy.id, params.pharmacy_order_uid)));
    },
  }),
  route({
    method: "PATCH",
    path: "/pharmacy_orders/:pharmacy_order_uid/complete_order",
    examples: {
      body: { tracking_links: [{ tracking_link: "https://tracking.example/00340434161094042557", carrier: "DHL" }] },
      responses: { 200: examples.pharmacyOrder },
    },
    responses: { 200: pharmacyOrderSchema, 400: completeOrderErrorSchema, 409: conflictErrorSchema },
    summary: "Complete the order: stock reduced, shipments from tracking links, payouts routed",
    permission: "orders_write",
    query: z.object(scopeQuery),
    body: z
      .object({
        tracking_links: z
          .array(z.object({ tracking_link: httpUrl(), carrier: z.enum(CARRIERS) }))
          .max(20)
          .optional(),
      })
      .optional(),
    invalidJsonBody: { error: ["Invalid JSON in request body"] },
    validationErrorBody: (fields, pharmacy) => ({
      error: fields,
      pharmacy: pharmacy ? { uid: pharmacy.id, display_name: pharmacy.displayName } : null,
    }),
    // complete_order names what was refused (spec: "{error: <message string>}").
    refusedBody: (error) => ({ error: error.message }),
    async handle(ctx) {
      const { pharmacy, params, body } = ctx;
      const links = (body?.tracking_links ?? []).map((l) => ({ trackingLink: l.tracking_link, carrier: l.carrier }));
      await completePharmacyOrder(pharmacy.id, params.pharmacy_order_uid, links, ctx.actor);
      return reply(200, presentPharmacyOrder(await getPharmacyOrderView(pharmacy.id, params.pharmacy_order_uid)));
    },
  }),
];
