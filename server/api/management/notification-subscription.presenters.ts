import type { Subscription } from "@/server/domain/webhooks/subscriptions";
import type { TestDeliveryResult } from "@/server/domain/webhooks/test-delivery";

/** An organisation-level subscription (G23's shape plus header_key and meta_data): never the secret or header value. */
export function presentNotificationSubscription(s: Subscription) {
  return {
    uid: s.id,
    notification_type: s.notificationType,
    target: s.target,
    options: "WEBHOOK",
    payload_version: s.payloadVersion,
    header_key: s.headerKey,
    meta_data: s.metaData ?? null,
  };
}

/** The registration response: the only place the secret is ever shown. */
export const presentRegisteredNotificationSubscription = (s: Subscription, secret: string) => ({
  ...presentNotificationSubscription(s),
  webhook_secret: secret,
});

export const presentTestDelivery = (r: TestDeliveryResult) => ({
  delivered: r.delivered,
  status_code: r.statusCode,
  signed: r.signed,
  duration_ms: r.durationMs,
  error: r.error,
});
