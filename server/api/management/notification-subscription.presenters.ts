import type { Subscription } from "@/server/domain/webhooks/subscriptions";
import type { TestDeliveryResult } from "@/server/domain/webhooks/test-delivery";
import { z } from "zod";

export const notificationSubscriptionSchema = z.object({
  uid: z.string(),
  notification_type: z.string(),
  target: z.string(),
  options: z.literal("WEBHOOK"),
  payload_version: z.string().nullable(),
  header_key: z.string().nullable(),
  meta_data: z.record(z.string(), z.unknown()).nullable(),
});

export const registeredNotificationSubscriptionSchema = notificationSubscriptionSchema.extend({
  webhook_secret: z.string().describe("Shown only here, once"),
});

export const testDeliverySchema = z.object({
  delivered: z.boolean(),
  status_code: z.number().int().nullable(),
  signed: z.boolean(),
  duration_ms: z.number(),
  error: z.string().nullable(),
});

/** An organisation-level subscription (G23's shape plus header_key and meta_data): never the secret or header value. */
export function presentNotificationSubscription(s: Subscription): z.infer<typeof notificationSubscriptionSchema> {
  return {
    uid: s.id,
    notification_type: s.notificationType,
    target: s.target,
    options: "WEBHOOK",
    payload_version: s.payloadVersion,
    header_key: s.headerKey,
    // Registration accepts only a JSON object (or null) here.
    meta_data: (s.metaData ?? null) as Record<string, unknown> | null,
  };
}

/** The registration response: the only place the secret is ever shown. */
export const presentRegisteredNotificationSubscription = (s: Subscription, secret: string): z.infer<typeof registeredNotificationSubscriptionSchema> => ({
  ...presentNotificationSubscription(s),
  webhook_secret: secret,
});

export const presentTestDelivery = (r: TestDeliveryResult): z.infer<typeof testDeliverySchema> => ({
  delivered: r.delivered,
  status_code: r.statusCode,
  signed: r.signed,
  duration_ms: r.durationMs,
  error: r.error,
});
