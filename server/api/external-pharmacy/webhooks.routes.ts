import { z } from "zod";
import { uid, webhookTarget } from "@/server/wire/schemas";
import { BadRequestError } from "@/server/domain/errors";
import { pharmacyToActFor } from "@/server/domain/pharmacies/pharmacy-scope";
import { PHARMACY_EVENT_TYPES } from "@/server/domain/webhooks/event-types";
import { deletePharmacySubscription, pageOfPharmacySubscriptions, registerPharmacySubscription } from "@/server/domain/webhooks/subscriptions";
import { paginated, paginatedSchema } from "@/server/wire/format";
import { pharmacyOutOfReach, route } from "@/server/rest/kit";
import { reply } from "@/server/rest/responses";
import {
  pharmacySubscriptionSchema,
  presentPharmacySubscription,
  presentRegisteredPharmacySubscription,
  registeredPharmacySubscriptionSchema,
} from "./webhook-subscription.presenters";

const scopeQuery = z.object({ pharmacy_uid: uid().optional() });
// null is accepted as "no custom header", like omitting the field.
const optionalText = () => z.string().nullable().optional();

const registerBody = z.object({
  // Listed for the explorer; another value (the organisation-only events too) is refused by the domain with its field message.
  notification_type: z.string().meta({ enum: [...PHARMACY_EVENT_TYPES], description: "The event type: the three pharmacy events only" }),
  target: webhookTarget(),
  pharmacy_uid: uid().nullable().optional(),
  header_key: optionalText(),
  header_value: optionalText(),
});

export const webhookRoutes = [
  route({
    method: "POST",
    path: "/webhooks",
    examples: {
      body: { notification_type: "pharmacy_order_created", target: "https://hooks.example.com/pharmacy", header_key: "X-Receiver-Token", header_value: "s3cret" },
    },
    responses: { 201: registeredPharmacySubscriptionSchema },
    summary:
      "Register a webhook (shows webhook_secret once). Registering the same notification_type, target and pharmacy again keeps the uid, issues a new secret and replaces the custom header",
    permission: "webhooks_write",
    // pharmacy_uid travels in the body here; resolved below by the same rule as the kit's.
    pharmacyScope: "optional",
    query: scopeQuery,
    body: registerBody,
    async handle({ principal, actor, query, body }) {
      if (body.pharmacy_uid && query.pharmacy_uid && body.pharmacy_uid !== query.pharmacy_uid) throw new BadRequestError();
      const pharmacy = await pharmacyToActFor(principal, body.pharmacy_uid ?? query.pharmacy_uid ?? null);
      if (!pharmacy) throw pharmacyOutOfReach();
      const { subscription, secret } = await registerPharmacySubscription({
        organisationId: pharmacy.organisationId,
        pharmacyId: pharmacy.id,
        notificationType: body.notification_type,
        target: body.target,
        headerKey: body.header_key,
        headerValue: body.header_value,
        actor,
      });
      return reply(201, presentRegisteredPharmacySubscription(subscription, secret));
    },
  }),
  route({
    method: "GET",
    path: "/webhooks",
    responses: { 200: paginatedSchema(pharmacySubscriptionSchema) },
    summary: "List the pharmacy's webhook subscriptions, oldest first (paginated; never the secret or header_value)",
    permission: "webhooks_read",
    paginated: {},
    query: scopeQuery,
    async handle({ pharmacy, page }) {
      const { items, total } = await pageOfPharmacySubscriptions(pharmacy.id, page);
      return reply(200, paginated(items.map(presentPharmacySubscription), total, page));
    },
  }),
  route({
    method: "DELETE",
    path: "/webhooks/:subscription_uid",
    responses: { 204: null },
    summary: "Delete a webhook subscription of the pharmacy",
    permission: "webhooks_write",
    query: scopeQuery,
    async handle({ pharmacy, actor, params }) {
      await deletePharmacySubscription(pharmacy.id, params.subscription_uid, actor);
      return reply(204);
    },
  }),
];
