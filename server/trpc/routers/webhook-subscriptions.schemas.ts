/** Inputs of the webhook subscription procedures, shared by the router and the portal's forms (zod and server/wire only). */
import { z } from "zod";
import { PHARMACY_EVENT_TYPES } from "@/server/domain/webhooks/event-types";
import { uid } from "@/server/wire/schemas";

const pharmacyUid = uid().optional();
const target = z.string().trim().min(1).max(2048);
const notificationType = z.enum(PHARMACY_EVENT_TYPES);

export const listSubscriptionsInput = z.object({ pharmacyUid });

export const registerSubscriptionInput = z.object({
  pharmacyUid,
  notificationType,
  target,
  headerKey: z.string().max(200).nullish(),
  headerValue: z.string().max(2000).nullish(),
});
export type RegisterSubscriptionInput = z.input<typeof registerSubscriptionInput>;

export const deleteSubscriptionInput = z.object({ pharmacyUid, subscriptionUid: uid() });

export const sendTestInput = z.object({ pharmacyUid, notificationType, target });

/** Target health of the pharmacy's subscriptions; one subscription's when subscriptionUid is given. */
export const subscriptionHealthInput = z.object({ pharmacyUid, subscriptionUid: uid().optional() });
