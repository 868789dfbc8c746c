import { z } from "zod";
import type { Subscription } from "@/server/domain/webhooks/subscriptions";

export const pharmacySubscriptionSchema = z.object({
  uid: z.string(),
  notification_type: z.string(),
  target: z.string(),
  pharmacy_uid: z.string().nullable(),
  header_key: z.string().nullable(),
});

export const registeredPharmacySubscriptionSchema = pharmacySubscriptionSchema.extend({
  webhook_secret: z.string().describe("Shown only here, once"),
});

/** A pharmacy's webhook subscription: never the secret or the custom header's value. */
export function presentPharmacySubscription(s: Subscription): z.infer<typeof pharmacySubscriptionSchema> {
  return {
    uid: s.id,
    notification_type: s.notificationType,
    target: s.target,
    pharmacy_uid: s.pharmacyId,
    header_key: s.headerKey,
  };
}

/** The registration response: the only place the secret is ever shown. */
export const presentRegisteredPharmacySubscription = (s: Subscription, secret: string): z.infer<typeof registeredPharmacySubscriptionSchema> => ({
  ...presentPharmacySubscription(s),
  webhook_secret: secret,
});
