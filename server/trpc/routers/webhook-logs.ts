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
import { resolvePharmacyScope } from "@/server/domain/pharmacies/pharmacy-scope";
import { announceDeliveries } from "@/server/jobs/webhook-delivery";
import { pharmacistProcedure, router } from "@/server/trpc/init";
import { fromUnixSeconds, toUnixSecondsInclusive, uid, unixSeconds } from "@/server/wire/schemas";
import { presentDeliveryLogDetail, presentDeliveryLogItem, presentDeliveryLogSubscription } from "./webhook-logs.presenters";

const pharmacyUid = uid().optional();

const listWebhookDeliveriesInput = z
  .object({
    pharmacyUid,
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

const deliveryInput = z.object({ pharmacyUid, deliveryUid: uid() });

export const webhookLogsRouter = router({
  list: pharmacistProcedure.input(listWebhookDeliveriesInput).query(async ({ ctx, input }) => {
    const pharmacyIds = await resolvePharmacyScope(ctx.user, input.pharmacyUid);
    const { items, total } = await listWebhookDeliveries({
      pharmacyIds,
      subscriptionId: input.subscriptionUid,
      eventType: input.eventType,
      state: input.state,
      from: fromUnixSeconds(input.from),
      to: toUnixSecondsInclusive(input.to),
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
    const pharmacyIds = await resolvePharmacyScope(ctx.user, input.pharmacyUid);
    return presentDeliveryLogDetail(await getWebhookDelivery(pharmacyIds, input.deliveryUid));
  }),

  subscriptions: pharmacistProcedure
    .input(z.object({ pharmacyUid }).default({}))
    .query(async ({ ctx, input }) => {
      const pharmacyIds = await resolvePharmacyScope(ctx.user, input.pharmacyUid);
      return (await listSubscriptionsForLogs(pharmacyIds)).map(presentDeliveryLogSubscription);
    }),

  /** Re-sends a dropped delivery: a fresh round of five attempts with the current state; returns the delivery. */
  resend: pharmacistProcedure.input(deliveryInput).mutation(async ({ ctx, input }) => {
    const pharmacyIds = await resolvePharmacyScope(ctx.user, input.pharmacyUid);
    await resendWebhookDelivery({
      deliveryId: input.deliveryUid,
      pharmacyIds,
      actor: { type: "USER", userId: ctx.user.id },
      announce: announceDeliveries,
    });
    return presentDeliveryLogDetail(await getWebhookDelivery(pharmacyIds, input.deliveryUid));
  }),
});
