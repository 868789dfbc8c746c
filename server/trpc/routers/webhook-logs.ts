/**
 * Pharmacy portal, API Access → Webhook Delivery Logs (spec, Events → Delivery mechanics, item 7):
 * the deliveries of the pharmacist's pharmacies' subscriptions, one delivery with its attempts, the
 * subscriptions to filter by, and the re-send of a dropped (permanently failed) delivery.
 */
import { z } from "zod";
import { getWebhookDelivery, listSubscriptionsForLogs, listWebhookDeliveries } from "@/server/domain/webhooks/delivery-logs";
import { resendWebhookDelivery } from "@/server/domain/webhooks/resend-delivery";
import { resolvePharmacyScope } from "@/server/domain/pharmacies/pharmacy-scope";
import { announceDeliveries } from "@/server/jobs/webhook-delivery";
import { pharmacistProcedure, router } from "@/server/trpc/init";
import { fromUnixSeconds, toUnixSecondsInclusive, uid } from "@/server/wire/schemas";
import { presentDeliveryLogDetail, presentDeliveryLogItem, presentDeliveryLogSubscription } from "./webhook-logs.presenters";
import { deliveryInput, listWebhookDeliveriesInput } from "./webhook-logs.schemas";

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
    return presentDeliveryLogDetail(await getWebhookDelivery({ pharmacyIds }, input.deliveryUid));
  }),

  subscriptions: pharmacistProcedure
    .input(z.object({ pharmacyUid: uid().optional() }).default({}))
    .query(async ({ ctx, input }) => {
      const pharmacyIds = await resolvePharmacyScope(ctx.user, input.pharmacyUid);
      return (await listSubscriptionsForLogs({ pharmacyIds })).map(presentDeliveryLogSubscription);
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
    return presentDeliveryLogDetail(await getWebhookDelivery({ pharmacyIds }, input.deliveryUid));
  }),
});
