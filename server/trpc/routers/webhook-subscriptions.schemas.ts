/**
 * Inputs of the webhook subscription procedures (webhooks.ts, both portals), shared by the router
 * and the portals' forms (zod and server/wire only). Which event types a subscription may take is
 * its scope's (the domain's check): a pharmacy's, the pharmacy events; the organisation's, all.
 */
import { z } from "zod";
import { EVENT_TYPES } from "@/server/domain/webhooks/event-types";
import { uid } from "@/server/wire/schemas";

/** A pharmacist's chosen pharmacy (narrows reads; names the pharmacy of a write). An admin's subscriptions are the organisation's. */
const pharmacyUid = uid().optional();
const target = z.string().trim().min(1).max(2048);
const notificationType = z.enum(EVENT_TYPES);

export const listSubscriptionsInput = z.object({ pharmacyUid }).default({});

export const registerSubscriptionInput = z.object({
  pharmacyUid,
  notificationType,
  target,
  headerKey: z.string().max(200).nullish(),
  headerValue: z.string().max(2000).nullish(),
});
export type RegisterSubscriptionInput = z.input<typeof registerSubscriptionInput>;

export const deleteSubscriptionInput = z.object({ pharmacyUid, subscriptionUid: uid() });

/** A test send is of one subscription (its event type, target and custom header). */
export const sendTestInput = z.object({ pharmacyUid, subscriptionUid: uid() });

/** Target health of the scope's subscriptions; one subscription's when subscriptionUid is given. */
export const subscriptionHealthInput = z.object({ pharmacyUid, subscriptionUid: uid().optional() }).default({});
