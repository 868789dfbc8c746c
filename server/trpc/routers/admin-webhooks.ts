/**
 * Admin tool, Settings → Webhooks: the organisation's notification subscriptions, through the same
 * domain functions as the Management API's notification-subscriptions endpoints (register with the
 * secret in the response only, delete, the signed test of POST …/notification-subscriptions/test),
 * the targets' health, and their delivery logs with the pharmacy portal's operator re-send. The
 * logs' procedures take the pharmacy portal's inputs and return its shapes, so one component
 * (components/webhooks/delivery-logs.tsx) serves both portals.
 */
import { z } from "zod";
import { sampleBody } from "@/server/api/webhooks/samples";
import { getWebhookDelivery, listSubscriptionsForLogs, listWebhookDeliveries } from "@/server/domain/webhooks/delivery-logs";
import { resendWebhookDelivery } from "@/server/domain/webhooks/resend-delivery";
import {
  deleteOrganisationSubscription,
  findOrganisationSubscription,
  listOrganisationSubscriptions,
  registerOrganisationSubscription,
} from "@/server/domain/webhooks/subscriptions";
import { organisationTargetHealth } from "@/server/domain/webhooks/target-health";
import { sendTestDelivery } from "@/server/domain/webhooks/test-delivery";
import { announceDeliveries } from "@/server/jobs/webhook-delivery";
import { adminProcedure, router } from "@/server/trpc/init";
import { fromUnixSeconds, toUnixSecondsInclusive, uid } from "@/server/wire/schemas";
import { organisationSubscriptionInput, registerOrganisationSubscriptionInput } from "./admin-webhooks.schemas";
import { presentDeliveryLogDetail, presentDeliveryLogItem, presentDeliveryLogSubscription } from "./webhook-logs.presenters";
import { deliveryInput, listWebhookDeliveriesInput } from "./webhook-logs.schemas";
import { presentSubscription, presentTargetHealth } from "./webhook-subscriptions.presenters";

export const adminWebhooksRouter = router({
  list: adminProcedure.query(async ({ ctx }) => (await listOrganisationSubscriptions(ctx.user.organisationId)).map(presentSubscription)),

  /** Whether each target keeps failing, failing ones first (target-health.ts). */
  health: adminProcedure.query(async ({ ctx }) => (await organisationTargetHealth(ctx.user.organisationId)).map(presentTargetHealth)),

  /** Registers (or re-registers: new secret, same uid); the secret is in this response only. */
  register: adminProcedure.input(registerOrganisationSubscriptionInput).mutation(async ({ ctx, input }) => {
    const { subscription, secret } = await registerOrganisationSubscription({
      organisationId: ctx.user.organisationId,
      notificationType: input.notificationType,
      target: input.target,
      headerKey: input.headerKey,
      headerValue: input.headerValue,
      actor: { type: "USER", userId: ctx.user.id },
    });
    return { ...presentSubscription(subscription), webhookSecret: secret };
  }),

  delete: adminProcedure.input(organisationSubscriptionInput).mutation(async ({ ctx, input }) => {
    await deleteOrganisationSubscription(ctx.user.organisationId, input.subscriptionUid, { type: "USER", userId: ctx.user.id });
    return { deleted: true };
  }),

  /**
   * Sends a sample of the subscription's event type to its target now, with X-Webhook-Test: true,
   * signed with its secret (the Management API's test: a live subscription matches); reports the answer.
   */
  sendTest: adminProcedure.input(organisationSubscriptionInput).mutation(async ({ ctx, input }) => {
    const subscription = await findOrganisationSubscription(ctx.user.organisationId, input.subscriptionUid);
    return sendTestDelivery({
      organisationId: ctx.user.organisationId,
      notificationType: subscription.notificationType,
      target: subscription.target,
      sampleBody,
    });
  }),
});

/** The organisation-level subscriptions' deliveries; pharmacyUid narrows to the events of one of its pharmacies. */
const scopeOf = (organisationId: string, pharmacyUid: string | undefined) => ({ organisationId, pharmacyId: pharmacyUid });

export const adminWebhookLogsRouter = router({
  list: adminProcedure.input(listWebhookDeliveriesInput).query(async ({ ctx, input }) => {
    const { items, total } = await listWebhookDeliveries({
      ...scopeOf(ctx.user.organisationId, input.pharmacyUid),
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

  get: adminProcedure.input(deliveryInput).query(async ({ ctx, input }) =>
    presentDeliveryLogDetail(await getWebhookDelivery(scopeOf(ctx.user.organisationId, input.pharmacyUid), input.deliveryUid)),
  ),

  subscriptions: adminProcedure
    .input(z.object({ pharmacyUid: uid().optional() }).default({}))
    .query(async ({ ctx }) => (await listSubscriptionsForLogs({ organisationId: ctx.user.organisationId })).map(presentDeliveryLogSubscription)),

  /** Re-sends a dropped delivery: a fresh round of five attempts with the current state; returns the delivery. */
  resend: adminProcedure.input(deliveryInput).mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.user.organisationId, input.pharmacyUid);
    await resendWebhookDelivery({ ...scope, deliveryId: input.deliveryUid, actor: { type: "USER", userId: ctx.user.id }, announce: announceDeliveries });
    return presentDeliveryLogDetail(await getWebhookDelivery(scope, input.deliveryUid));
  }),
});
