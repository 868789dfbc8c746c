/**
 * Pharmacy portal, API Access → Webhook Delivery Logs (spec, Events → Delivery mechanics, item 7):
 * the deliveries of the pharmacist's pharmacies' subscriptions, one delivery with its attempts, the
 * subscriptions to filter by, and the re-send of a dropped (permanently failed) delivery.
 */
import { z } from "zod";
import {
  DELIVERY_LOG_MAX_LIMIT,
  DELIVERY_LOG_STATES,
  getWebhookDelivery,
  listSubscriptionsForLogs,
  listWebhookDeliveries,
} from "@/server/domain/webhooks/delivery-logs";
import { EVENT_TYPES } from "@/server/domain/webhooks/event-types";
import { resendWebhookDelivery } from "@/server/domain/webhooks/resend-delivery";
import { announceDeliveries } from "@/server/jobs/webhook-delivery";
import { pharmacistProcedure, router } from "@/server/trpc/init";
import { pharmacyIdsFor, pharmacyUidInput } from "@/server/trpc/pharmacy-scope";
import { presentDeliveryLogDetail, presentDeliveryLogItem, presentDeliveryLogSubscription } from "./webhook-logs.presenters";

const uid = () => z.string().trim().min(1).max(100);
/** Unix seconds up to 9999-12-31. */
const unixSeconds = () => z.number().int().min(0).max(253_402_300_799);

export const listWebhookDeliveriesInput = z
  .object({
    pharmacyUid: pharmacyUidInput,
    subscriptionUid: uid().optional(),
    eventType: z.enum(EVENT_TYPES).optional(),
    state: z.enum(DELIVERY_LOG_STATES).optional(),
    /** Creation time from (inclusive), Unix seconds. */
    from: unixSeconds().optional(),
    /** Creation time to (inclusive: the whole second), Unix seconds. */
    to: unixSeconds().optional(),
    page: z.number().int().min(0).max(10_000_000).default(0),
    limit: z.number().int().min(1).max(DELIVERY_LOG_MAX_LIMIT).default(50),
  })
  .refine((input) => input.from === undefined || input.to === undefined || input.from <= input.to, {
    path: ["to"],
    message: "Must not be before from.",
  });

const deliveryInput = z.object({ pharmacyUid: pharmacyUidInput, deliveryUid: uid() });

export const webhookLogsRouter = router({
  list: pharmacistProcedure.input(listWebhookDeliveriesInput).query(async ({ ctx, input }) => {
    const pharmacyIds = await pharmacyIdsFor(ctx, input.pharmacyUid);
    const { items, total } = await listWebhookDeliveries(ctx.db, {
      pharmacyIds,
      subscriptionId: input.subscriptionUid,
      eventType: input.eventType,
      state: input.state,
      from: input.from === undefined ? undefined : new Date(input.from * 1000),
      to: input.to === undefined ? undefined : new Date(input.to * 1000 + 999),
      page: input.page,
      limit: input.limit,
    });
    return {
      items: items.map(presentDeliveryLogItem),
      total,
      page: input.page,
      limit: input.limit,
      totalPages: Math.ceil(total / input.limit),
    };
  }),

  get: pharmacistProcedure.input(deliveryInput).query(async ({ ctx, input }) => {
    const pharmacyIds = await pharmacyIdsFor(ctx, input.pharmacyUid);
    return presentDeliveryLogDetail(await getWebhookDelivery(ctx.db, pharmacyIds, input.deliveryUid));
  }),

  subscriptions: pharmacistProcedure
    .input(z.object({ pharmacyUid: pharmacyUidInput }).default({}))
    .query(async ({ ctx, input }) => {
      const pharmacyIds = await pharmacyIdsFor(ctx, input.pharmacyUid);
      return (await listSubscriptionsForLogs(ctx.db, pharmacyIds)).map(presentDeliveryLogSubscription);
    }),

  /** Re-sends a dropped delivery: a fresh round of five attempts with the current state; returns the delivery. */
  resend: pharmacistProcedure.input(deliveryInput).mutation(async ({ ctx, input }) => {
    const pharmacyIds = await pharmacyIdsFor(ctx, input.pharmacyUid);
    await resendWebhookDelivery(ctx.db, {
      deliveryId: input.deliveryUid,
      pharmacyIds,
      actor: { type: "USER", userId: ctx.user.id },
      announce: announceDeliveries,
    });
    return presentDeliveryLogDetail(await getWebhookDelivery(ctx.db, pharmacyIds, input.deliveryUid));
  }),
});
