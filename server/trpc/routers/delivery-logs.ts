/**
 * Webhook Delivery Logs (spec, Events → Delivery mechanics, item 7), one implementation mounted
 * under both portals (pharmacy.deliveryLogs, admin.deliveryLogs): the deliveries, one delivery with
 * its attempts, the subscriptions to filter by, and the re-send of a dropped (permanently failed)
 * delivery. What a caller sees is its door's scope (logScope); the inputs and shapes are the same,
 * so one component (components/webhooks/delivery-logs.tsx) serves both portals.
 */
import { z } from "zod";
import { getWebhookDelivery, listSubscriptionsForLogs, listWebhookDeliveries, type DeliveryLogScope } from "@/server/domain/webhooks/delivery-logs";
import { resendWebhookDelivery } from "@/server/domain/webhooks/resend-delivery";
import { announceDeliveries } from "@/server/jobs/webhook-delivery";
import { router, type PortalProcedure, type PortalScope } from "@/server/trpc/init";
import { fromUnixSeconds, toUnixSecondsInclusive, uid } from "@/server/wire/schemas";
import { presentDeliveryLogDetail, presentDeliveryLogItem, presentDeliveryLogSubscription } from "./webhook-logs.presenters";
import { deliveryInput, listWebhookDeliveriesInput } from "./webhook-logs.schemas";

/**
 * An admin sees the organisation-level subscriptions' deliveries (a chosen pharmacy narrows them to
 * that pharmacy's events); a pharmacist those of the subscriptions of the pharmacies in reach (or of
 * the chosen one).
 */
const logScope = (scope: PortalScope, pharmacyUid: string | undefined): DeliveryLogScope =>
  scope.door === "admin" ? { organisationId: scope.organisationId, pharmacyId: pharmacyUid } : { pharmacyIds: scope.pharmacyIds(pharmacyUid) };

export const deliveryLogsRouter = (procedure: PortalProcedure) =>
  router({
    list: procedure.input(listWebhookDeliveriesInput).query(async ({ ctx, input }) => {
      const { items, total } = await listWebhookDeliveries({
        ...logScope(ctx.scope, input.pharmacyUid),
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

    get: procedure
      .input(deliveryInput)
      .query(async ({ ctx, input }) => presentDeliveryLogDetail(await getWebhookDelivery(logScope(ctx.scope, input.pharmacyUid), input.deliveryUid))),

    subscriptions: procedure
      .input(z.object({ pharmacyUid: uid().optional() }).default({}))
      .query(async ({ ctx, input }) => (await listSubscriptionsForLogs(logScope(ctx.scope, input.pharmacyUid))).map(presentDeliveryLogSubscription)),

    /** Re-sends a dropped delivery: a fresh round of five attempts with the current state; returns the delivery. */
    resend: procedure.input(deliveryInput).mutation(async ({ ctx, input }) => {
      const scope = logScope(ctx.scope, input.pharmacyUid);
      await resendWebhookDelivery({ ...scope, deliveryId: input.deliveryUid, actor: { type: "USER", userId: ctx.user.id }, announce: announceDeliveries });
      return presentDeliveryLogDetail(await getWebhookDelivery(scope, input.deliveryUid));
    }),
  });
