/**
 * Pharmacy portal, Orders: the queue (the REST list's statement, over all of a group pharmacist's
 * pharmacies or the one picked) with its per-status counts (the tally), one order with its history
 * and prescription PDF, and the commands on it — the same domain functions as the External Pharmacy
 * API. Every command carries what the page showed (expected status, priority, delivery type) and is
 * refused with CONFLICT when the order changed meanwhile (docs/decisions/pharmacy-portal.md#pharmacy-portal).
 */
import { wordIn } from "@/i18n/error-text";
import { wordFields } from "@/server/domain/errors";
import { bulkChangePharmacyOrderStatus } from "@/server/domain/pharmacy-orders/bulk-change-status";
import { changePharmacyOrderDeliveryType, changePharmacyOrderPriority } from "@/server/domain/pharmacy-orders/change-details";
import { changePharmacyOrderStatus } from "@/server/domain/pharmacy-orders/change-status";
import { openClarificationRequest } from "@/server/domain/pharmacy-orders/clarification";
import { completePharmacyOrder } from "@/server/domain/pharmacy-orders/complete";
import {
  getPharmacyOrderDetailForPortal,
  getPharmacyOrderPrescriptionFile,
  listPharmacyOrdersForQueue,
  pharmacyOfPharmacyOrder,
} from "@/server/domain/pharmacy-orders/queries";
import { markAnswerRead } from "@/server/domain/pharmacy-orders/issue-thread-answers";
import { addShipment } from "@/server/domain/pharmacy-orders/shipments";
import { PHARMACY_ORDER_STATUSES } from "@/server/domain/pharmacy-orders/statuses";
import type { Actor } from "@/server/domain/actor";
import { pharmacyProcedure, router, type PharmaciesScope } from "@/server/trpc/init";
import { fromUnixSeconds, toUnixSecondsInclusive } from "@/server/wire/schemas";
import { presentPortalDetail, presentQueueEntry } from "./pharmacy-orders.presenters";
import {
  addShipmentInput,
  bulkChangeStatusInput,
  changeDeliveryTypeInput,
  changePriorityInput,
  changeStatusInput,
  clarificationInput,
  completeOrderInput,
  listPharmacyOrdersInput,
  markAnswerReadInput,
  pharmacyOrderInput,
} from "./pharmacy-orders.schemas";

const userActor = (user: { id: string }): Actor => ({ type: "USER", userId: user.id });

/** The pharmacies in reach, and which of them has the order (else NOT_FOUND before any other refusal, like the REST 404). */
async function orderInReach(scope: PharmaciesScope, pharmacyOrderId: string) {
  const pharmacyIds = scope.pharmacyIds();
  return { pharmacyIds, pharmacyId: await pharmacyOfPharmacyOrder(pharmacyIds, pharmacyOrderId) };
}

export const pharmacyOrdersRouter = router({
  /** The queue: newest first, as the REST list (same statement), with counts per status over the pharmacies in scope. */
  list: pharmacyProcedure.input(listPharmacyOrdersInput).query(async ({ ctx, input }) => {
    const pharmacyIds = ctx.scope.pharmacyIds(input.pharmacyUid);
    const { rows, total, statusCounts } = await listPharmacyOrdersForQueue(
      {
        pharmacyIds,
        status: input.status,
        search: input.search?.trim() || undefined,
        createdFrom: fromUnixSeconds(input.from),
        createdTo: toUnixSecondsInclusive(input.to),
      },
      { page: input.page, limit: input.limit },
    );
    return {
      items: rows.map(presentQueueEntry),
      total,
      page: input.page,
      limit: input.limit,
      totalPages: Math.ceil(total / input.limit),
      statusCounts: Object.fromEntries(PHARMACY_ORDER_STATUSES.map((s) => [s, statusCounts[s] ?? 0])) as Record<string, number>,
      allCount: Object.values(statusCounts).reduce((sum, n) => sum + n, 0),
      pharmacyCount: pharmacyIds.length,
    };
  }),

  get: pharmacyProcedure.input(pharmacyOrderInput).query(async ({ ctx, input }) => {
    const { pharmacyId } = await orderInReach(ctx.scope, input.uid);
    return presentPortalDetail(await getPharmacyOrderDetailForPortal(pharmacyId, input.uid));
  }),

  /** The signed prescription PDF (base64), or null when the order carries none. */
  prescriptionFile: pharmacyProcedure.input(pharmacyOrderInput).query(async ({ ctx, input }) => {
    const { pharmacyId } = await orderInReach(ctx.scope, input.uid);
    const file = await getPharmacyOrderPrescriptionFile(pharmacyId, input.uid);
    return file ? { filename: file.filename, contentBase64: file.content.toString("base64") } : null;
  }),

  /** The pharmacist opened the order and saw its admin answers: the queue's "New answer" goes (issue-thread-answers.ts). */
  markAnswerRead: pharmacyProcedure.input(markAnswerReadInput).mutation(async ({ ctx, input }) => {
    const { pharmacyId } = await orderInReach(ctx.scope, input.uid);
    return { read: await markAnswerRead([pharmacyId], input.uid, input.seen) };
  }),

  changeStatus: pharmacyProcedure.input(changeStatusInput).mutation(async ({ ctx, input }) => {
    const { pharmacyId } = await orderInReach(ctx.scope, input.uid);
    await changePharmacyOrderStatus(pharmacyId, input.uid, { status: input.status, comment: input.comment, goodsReturned: input.goodsReturned }, userActor(ctx.user), {
      status: input.expectedStatus,
    });
    return { ok: true };
  }),

  /** The selected orders one by one (bulkChangePharmacyOrderStatus): a result per order, refusals in the caller's language. */
  bulkChangeStatus: pharmacyProcedure.input(bulkChangeStatusInput).mutation(async ({ ctx, input }) => {
    const pharmacyIds = ctx.scope.pharmacyIds(input.pharmacyUid);
    const results = await bulkChangePharmacyOrderStatus(pharmacyIds, input.uids, { status: input.status, comment: input.comment, goodsReturned: input.goodsReturned }, userActor(ctx.user));
    const word = wordIn(ctx.locale);
    return results.map((result) =>
      result.ok ? result : { ...result, message: word(result.message), ...(result.fields ? { fields: wordFields(result.fields, word) } : {}) },
    );
  }),

  /** complete_order: stock reduced, shipments from the tracking links, payouts routed. */
  complete: pharmacyProcedure.input(completeOrderInput).mutation(async ({ ctx, input }) => {
    const { pharmacyId } = await orderInReach(ctx.scope, input.uid);
    await completePharmacyOrder(pharmacyId, input.uid, input.trackingLinks, userActor(ctx.user), { status: input.expectedStatus });
    return { ok: true };
  }),

  addShipment: pharmacyProcedure.input(addShipmentInput).mutation(async ({ ctx, input }) => {
    const { pharmacyIds } = await orderInReach(ctx.scope, input.uid);
    const shipment = await addShipment(
      pharmacyIds,
      input.uid,
      { trackingUrl: input.trackingUrl, trackingNumber: input.trackingNumber, carrier: input.carrier },
      userActor(ctx.user),
      { status: input.expectedStatus },
    );
    return { uid: shipment.id, sequenceNumber: shipment.sequenceNumber };
  }),

  /** Puts the order on hold and opens an admin issue thread with the description. */
  requestClarification: pharmacyProcedure.input(clarificationInput).mutation(async ({ ctx, input }) => {
    const { pharmacyIds } = await orderInReach(ctx.scope, input.uid);
    const result = await openClarificationRequest({ pharmacyIds }, input.uid, { description: input.description }, userActor(ctx.user), {
      status: input.expectedStatus,
    });
    return { threadUid: result.threadId, statusChanged: result.statusChanged };
  }),

  changePriority: pharmacyProcedure.input(changePriorityInput).mutation(async ({ ctx, input }) => {
    const { pharmacyIds } = await orderInReach(ctx.scope, input.uid);
    const changed = await changePharmacyOrderPriority({ pharmacyIds }, input.uid, input.priority, userActor(ctx.user), {
      priority: input.expectedPriority,
    });
    return { changed };
  }),

  changeDeliveryType: pharmacyProcedure.input(changeDeliveryTypeInput).mutation(async ({ ctx, input }) => {
    const { pharmacyIds } = await orderInReach(ctx.scope, input.uid);
    const changed = await changePharmacyOrderDeliveryType({ pharmacyIds }, input.uid, input.deliveryType, userActor(ctx.user), {
      status: input.expectedStatus,
      deliveryType: input.expectedDeliveryType,
    });
    return { changed };
  }),
});
