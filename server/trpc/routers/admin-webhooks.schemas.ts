/** Inputs of the admin tool's webhook procedures, shared by the routers and the forms (zod and server/wire only). */
import { z } from "zod";
import { EVENT_TYPES } from "@/server/domain/webhooks/event-types";
import { uid } from "@/server/wire/schemas";

/** An organisation-level subscription: any of the spec's event names (the Management API's notification types). */
export const registerOrganisationSubscriptionInput = z.object({
  notificationType: z.enum(EVENT_TYPES),
  target: z.string().trim().min(1).max(2048),
  headerKey: z.string().max(200).nullish(),
  headerValue: z.string().max(2000).nullish(),
});
export type RegisterOrganisationSubscriptionInput = z.input<typeof registerOrganisationSubscriptionInput>;

export const organisationSubscriptionInput = z.object({ subscriptionUid: uid() });
