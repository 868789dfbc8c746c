import type { Subscription } from "@/server/domain/webhooks/subscriptions";

/** A pharmacy's webhook subscription: never the secret or the custom header's value. */
export function presentPharmacySubscription(s: Subscription) {
  return {
    uid: s.id,
    notification_type: s.notificationType,
    target: s.target,
    pharmacy_uid: s.pharmacyId,
    header_key: s.headerKey,
  };
}

/** The registration response: the only place the secret is ever shown. */
export const presentRegisteredPharmacySubscription = (s: Subscription, secret: string) => ({
  ...presentPharmacySubscription(s),
  webhook_secret: secret,
});
