import { z } from "zod";
import { freeFormObject, uid, webhookTarget } from "@/server/wire/schemas";
import { ValidationError } from "@/server/domain/errors";
import {
  deleteOrganisationSubscription,
  pageOfOrganisationSubscriptions,
  registerOrganisationSubscription,
} from "@/server/domain/webhooks/subscriptions";
import { EVENT_TYPES } from "@/server/domain/webhooks/event-types";
import { sendTestDelivery } from "@/server/domain/webhooks/test-delivery";
import { sampleBody } from "@/server/api/webhooks/samples";
import { route } from "@/server/rest/kit";
import { paginated, paginatedSchema } from "@/server/wire/format";
import { reply } from "@/server/rest/responses";
import {
  notificationSubscriptionSchema,
  registeredNotificationSubscriptionSchema,
  testDeliverySchema,
  presentNotificationSubscription,
  presentRegisteredNotificationSubscription,
  presentTestDelivery,
} from "./notification-subscription.presenters";

// Spec: these operations need only a valid Management key (no permission), see docs/decisions/webhooks.md#webhook-subscriptions (C1).
const optionalText = () => z.string().nullable().optional();

// Listed for the explorer and generated clients; a value outside it is refused by the domain with its field message.
const notificationType = () =>
  z.string().meta({ enum: [...EVENT_TYPES], description: "The event type; order_* and prescription_* are Management subscriptions only" });

const registerBody = z.object({
  notification_type: notificationType(),
  target: webhookTarget(),
  header_key: optionalText(),
  header_value: optionalText(),
  meta_data: freeFormObject().nullable().optional(),
  payload_version: z.string().nullable().optional(),
});

// DELETE on the collection path names the subscription in a JSON body {uid} or as ?uid=.
const deleteQuery = z.object({ uid: uid().optional() });
const deleteBody = z.object({ uid: uid().optional() }).optional();

export const notificationSubscriptionRoutes = [
  route({
    method: "GET",
    path: "/notification-subscriptions",
    responses: { 200: paginatedSchema(notificationSubscriptionSchema) },
    summary: "List the organisation's webhook subscriptions, oldest first (paginated; never the secret or header_value)",
    paginated: {},
    async handle({ principal, page }) {
      const { items, total } = await pageOfOrganisationSubscriptions(principal.organisationId, page);
      return reply(200, paginated(items.map(presentNotificationSubscription), total, page));
    },
  }),
  route({
    method: "POST",
    path: "/notification-subscriptions",
    examples: {
      body: { notification_type: "pharmacy_order_updated", target: "https://hooks.example.com/orders", header_key: "X-Receiver-Token", header_value: "s3cret" },
    },
    responses: { 201: registeredNotificationSubscriptionSchema },
    summary:
      "Register an organisation-level webhook (shows webhook_secret once). The same notification_type and target again keeps the uid, issues a new secret and replaces header, meta_data and payload_version",
    body: registerBody,
    async handle({ principal, actor, body }) {
      const { subscription, secret } = await registerOrganisationSubscription({
        organisationId: principal.organisationId,
        notificationType: body.notification_type,
        target: body.target,
        headerKey: body.header_key,
        headerValue: body.header_value,
        metaData: body.meta_data,
        payloadVersion: body.payload_version,
        actor,
      });
      return reply(201, presentRegisteredNotificationSubscription(subscription, secret));
    },
  }),
  route({
    method: "DELETE",
    path: "/notification-subscriptions",
    examples: { body: { uid: "6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d" } },
    responses: { 204: null },
    summary: "Delete a subscription named by the body {\"uid\": …} or the query parameter uid",
    query: deleteQuery,
    body: deleteBody,
    async handle({ principal, actor, query, body }) {
      const fromBody = body?.uid;
      if (fromBody && query.uid && fromBody !== query.uid) {
        throw ValidationError.field("uid", "The uid in the body and in the query differ.");
      }
      const subscriptionId = fromBody ?? query.uid;
      if (!subscriptionId) throw ValidationError.field("uid", "This field is required.");
      await deleteOrganisationSubscription(principal.organisationId, subscriptionId, actor);
      return reply(204);
    },
  }),
  route({
    method: "DELETE",
    path: "/notification-subscriptions/:subscription_uid",
    responses: { 204: null },
    summary: "Delete a subscription",
    async handle({ principal, actor, params }) {
      await deleteOrganisationSubscription(principal.organisationId, params.subscription_uid, actor);
      return reply(204);
    },
  }),
  route({
    method: "POST",
    path: "/notification-subscriptions/test",
    examples: { body: { notification_type: "pharmacy_order_updated", target: "https://hooks.example.com/orders" } },
    responses: { 200: testDeliverySchema },
    summary:
      "Send a sample delivery of notification_type to target now (X-Webhook-Test: true); signed when a subscription of the organisation has this target and notification_type",
    successStatus: 200,
    body: z.object({ notification_type: notificationType(), target: webhookTarget() }),
    async handle({ principal, body }) {
      const result = await sendTestDelivery({
        organisationId: principal.organisationId,
        target: body.target,
        notificationType: body.notification_type,
        sampleBody,
      });
      return reply(200, presentTestDelivery(result));
    },
  }),
];
