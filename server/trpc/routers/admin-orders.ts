/**
 * The admin tool, Orders: the Management order list (its filters and paging, the admin search),
 * one order in full, its prescriptions' PDFs, and the commands: cancel a fulfillment (the Management
 * API's cancelFulfillment), release an order created on hold, route a fulfillment to a pharmacy
 * by hand (with the pharmacy chooser's read), and the admin team's clarification request on a
 * pharmacy order (the pharmacist's rule). Always the admin's organisation: another organisation's
 * order is NOT_FOUND.
 */
import { cancelFulfillmentByUid } from "@/server/domain/orders/change-order";
import { getOrderDetailForAdmin, getOrderPrescriptionFile } from "@/server/domain/orders/order-detail";
import { listOrders } from "@/server/domain/orders/queries";
import { releaseOrderHold } from "@/server/domain/orders/release-order-hold";
import { pharmacyChoicesForFulfillment, routeFulfillmentByHand } from "@/server/domain/orders/route-by-hand";
import { openClarificationRequest } from "@/server/domain/pharmacy-orders/clarification";
import { adminProcedure, router } from "@/server/trpc/init";
import { presentOrderDetail, presentOrderRow } from "./admin-orders.presenters";
import {
  adminOrderInput,
  adminPrescriptionFileInput,
  cancelFulfillmentInput,
  fulfillmentRoutingInput,
  listAdminOrdersInput,
  routeFulfillmentInput,
} from "./admin-orders.schemas";
import { clarificationInput } from "./pharmacy-orders.schemas";

export const adminOrdersRouter = router({
  list: adminProcedure.input(listAdminOrdersInput).query(async ({ ctx, input }) => {
    const { items, total } = await listOrders(
      ctx.scope.organisationId,
      { search: input.search?.trim() || undefined, searchCustomer: true, status: input.status, onHold: input.onHold, withoutPharmacy: input.withoutPharmacy },
      { page: input.page, limit: input.limit },
    );
    return { items: items.map(presentOrderRow), total, page: input.page, limit: input.limit, totalPages: Math.ceil(total / input.limit) };
  }),

  get: adminProcedure.input(adminOrderInput).query(async ({ ctx, input }) =>
    presentOrderDetail(await getOrderDetailForAdmin(ctx.scope.organisationId, input.uid)),
  ),

  /** The signed PDF, else the latest rendering (base64), or null when the prescription has no file yet. */
  prescriptionFile: adminProcedure.input(adminPrescriptionFileInput).query(async ({ ctx, input }) => {
    const file = await getOrderPrescriptionFile(ctx.scope.organisationId, input.orderUid, input.prescriptionUid);
    return file ? { filename: file.filename, signed: file.signed, contentBase64: file.content.toString("base64") } : null;
  }),

  cancelFulfillment: adminProcedure.input(cancelFulfillmentInput).mutation(async ({ ctx, input }) => {
    await cancelFulfillmentByUid(ctx.scope.organisationId, input.orderUid, input.fulfillmentUid, { type: "USER", userId: ctx.user.id });
    return { ok: true };
  }),

  /**
   * The admin team asks the pharmacy (openClarificationRequest, the rule a pharmacist's request
   * follows): the pharmacy order goes on hold and the pharmacy sees the thread. `uid` is the
   * pharmacy order's; refused with CONFLICT when its status is no longer the one the page showed.
   */
  requestClarification: adminProcedure.input(clarificationInput).mutation(async ({ ctx, input }) => {
    const result = await openClarificationRequest(
      { organisationId: ctx.scope.organisationId },
      input.uid,
      { description: input.description },
      { type: "USER", userId: ctx.user.id },
      { status: input.expectedStatus },
    );
    return { threadUid: result.threadId, statusChanged: result.statusChanged };
  }),

  releaseHold: adminProcedure.input(adminOrderInput).mutation(async ({ ctx, input }) => {
    const outcome = await releaseOrderHold(ctx.scope.organisationId, input.uid, { type: "USER", userId: ctx.user.id });
    return {
      released: outcome.released,
      pharmacyOrderUids: outcome.pharmacyOrderIds,
      unroutableFulfillmentUids: outcome.unroutableFulfillmentIds,
    };
  }),

  /** The pharmacies a fulfillment may be routed to by hand, routing's choice first (pharmacyChoicesForFulfillment). */
  pharmacyChoices: adminProcedure.input(fulfillmentRoutingInput).query(async ({ ctx, input }) => {
    const choices = await pharmacyChoicesForFulfillment(ctx.scope.organisationId, input.orderUid, input.fulfillmentUid);
    return choices.map(({ pharmacyId, ...choice }) => ({ pharmacyUid: pharmacyId, ...choice }));
  }),

  routeFulfillment: adminProcedure.input(routeFulfillmentInput).mutation(async ({ ctx, input }) => {
    const routed = await routeFulfillmentByHand(ctx.scope.organisationId, input.orderUid, input.fulfillmentUid, input.pharmacyUid, {
      type: "USER",
      userId: ctx.user.id,
    });
    return { pharmacyOrderUid: routed.pharmacyOrderId };
  }),
});
