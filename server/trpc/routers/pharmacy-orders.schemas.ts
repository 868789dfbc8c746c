/**
 * Inputs of the pharmacy portal's order procedures, shared by the router and the pages' forms (so a
 * form checks exactly what the server checks). Imports only zod, server/wire and the areas'
 * vocabulary (constants that import nothing).
 */
import { z } from "zod";
import { ORDER_PRIORITY_MAX, ORDER_PRIORITY_MIN } from "@/server/domain/orders/intake";
import {
  CARRIERS,
  DELIVERY_TYPES,
  PHARMACY_ORDER_STATUS,
  PHARMACY_ORDER_STATUSES,
  SETTABLE_PHARMACY_ORDER_STATUSES,
} from "@/server/domain/pharmacy-orders/statuses";
import { httpUrl, int4, searchTerm, uid, unixSeconds } from "@/server/wire/schemas";
import { ownMessage } from "@/server/wire/zod-messages";

export const ORDER_QUEUE_MAX_LIMIT = 200;

export const pharmacyStatus = z.enum(PHARMACY_ORDER_STATUSES);

export const listPharmacyOrdersInput = z
  .object({
    /** One pharmacy of a group pharmacist's; absent: all of the caller's pharmacies. */
    pharmacyUid: uid().optional(),
    status: pharmacyStatus.optional(),
    search: searchTerm(),
    /** Created from (inclusive), Unix seconds. */
    from: unixSeconds().optional(),
    /** Created to (inclusive: the whole second), Unix seconds. */
    to: unixSeconds().optional(),
    page: z.number().int().min(0).max(10_000_000).default(0),
    limit: z.number().int().min(1).max(ORDER_QUEUE_MAX_LIMIT).default(50),
  })
  .refine((input) => input.from === undefined || input.to === undefined || input.from <= input.to, {
    path: ["to"],
    ...ownMessage("fields.notBeforeFrom"),
  });

export const pharmacyOrderInput = z.object({ uid: uid() });

/** The page read the order's admin answers up to `seen` (its unreadAnswerAt, Unix seconds). */
export const markAnswerReadInput = z.object({ uid: uid(), seen: unixSeconds() });

/** The status the page showed: the change is refused (CONFLICT) when the order has another one now. */
const expectedStatus = pharmacyStatus;

const comment = z.string().max(5000).nullish();

/** Cancelling a completed order: the pharmacist says its goods came back, so its stock is returned (default: they did not). */
const goodsReturned = z.boolean().optional();

/** On hold needs a comment (the domain's rule, checked here too so the form says so at once). */
const onHoldNeedsComment = (input: { status: string; comment?: string | null }, ctx: z.RefinementCtx) => {
  if (input.status === PHARMACY_ORDER_STATUS.onHold && !input.comment?.trim()) {
    ctx.addIssue({ code: "custom", path: ["comment"], ...ownMessage("pharmacyOrders.onHoldCommentRequired") });
  }
};

export const changeStatusInput = z
  .object({ uid: uid(), status: z.enum(SETTABLE_PHARMACY_ORDER_STATUSES), comment, expectedStatus, goodsReturned })
  .superRefine(onHoldNeedsComment);

export const bulkChangeStatusInput = z
  .object({
    pharmacyUid: uid().optional(),
    uids: z
      .array(uid())
      .refine((uids) => uids.length > 0, ownMessage("pharmacyOrders.selectAtLeastOne"))
      .max(200),
    status: z.enum(SETTABLE_PHARMACY_ORDER_STATUSES),
    comment,
    goodsReturned,
  })
  .superRefine(onHoldNeedsComment);

export const carrier = z.enum(CARRIERS);

export const completeOrderInput = z.object({
  uid: uid(),
  trackingLinks: z.array(z.object({ trackingLink: httpUrl(), carrier })).max(20).default([]),
  expectedStatus,
});

const optionalText = (max: number) => z.string().trim().max(max).nullish();

export const addShipmentInput = z.object({
  uid: uid(),
  trackingUrl: z.union([z.literal(""), httpUrl()]).nullish(),
  trackingNumber: optionalText(100),
  carrier: z.union([z.literal(""), carrier]).nullish(),
  expectedStatus,
});

export const clarificationInput = z.object({
  uid: uid(),
  description: z
    .string()
    .trim()
    .refine((text) => text.length > 0, ownMessage("fields.required"))
    .max(5000),
  expectedStatus,
});

export const changePriorityInput = z.object({
  uid: uid(),
  priority: z.number().int().min(ORDER_PRIORITY_MIN).max(ORDER_PRIORITY_MAX),
  /** The priority the page showed. */
  expectedPriority: int4(),
});

export const changeDeliveryTypeInput = z.object({
  uid: uid(),
  deliveryType: z.enum(DELIVERY_TYPES),
  /** The delivery type the page showed. */
  expectedDeliveryType: z.enum(DELIVERY_TYPES),
  expectedStatus,
});
