/** Inputs of the delivery log procedures, shared by the router and the portal's filters (zod and server/wire only). */
import { z } from "zod";
import { DELIVERY_LOG_MAX_LIMIT, DELIVERY_LOG_STATES } from "@/server/domain/webhooks/delivery-log-states";
import { EVENT_TYPES } from "@/server/domain/webhooks/event-types";
import { uid, unixSeconds } from "@/server/wire/schemas";
import { ownMessage } from "@/server/wire/zod-messages";

const pharmacyUid = uid().optional();

export const listWebhookDeliveriesInput = z
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
    ...ownMessage("fields.notBeforeFrom"),
  });
export type ListWebhookDeliveriesInput = z.input<typeof listWebhookDeliveriesInput>;

export const deliveryInput = z.object({ pharmacyUid, deliveryUid: uid() });
