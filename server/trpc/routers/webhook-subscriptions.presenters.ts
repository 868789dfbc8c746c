/** The portals' shapes of webhook subscriptions and their targets' health: camelCase, uids, Unix seconds. */
import type { Subscription } from "@/server/domain/webhooks/subscriptions";
import { isPlainHttp } from "@/server/domain/webhooks/target-rule";
import { measuredSince, type TargetHealth } from "@/server/domain/webhooks/target-health";
import { unix, unixOrNull } from "@/server/wire/format";

export const presentSubscription = (s: Subscription) => ({
  uid: s.id,
  notificationType: s.notificationType,
  target: s.target,
  /** Registered over plain http (before https was required): flagged in the portals. */
  plainHttp: isPlainHttp(s.target),
  pharmacyUid: s.pharmacyId,
  headerKey: s.headerKey,
  createdAt: unix(s.createdAt),
});

export const presentTargetHealth = (h: TargetHealth) => ({
  subscriptionUid: h.subscriptionId,
  pharmacyUid: h.pharmacyId,
  notificationType: h.notificationType,
  target: h.target,
  state: h.state,
  registeredAt: unix(h.createdAt),
  /** Where failuresSinceSuccess is counted from: the last success, else the registration. */
  measuredSince: unix(measuredSince(h)),
  lastSuccessAt: unixOrNull(h.lastSuccessAt),
  lastFailureAt: unixOrNull(h.lastFailureAt),
  failuresSinceSuccess: h.failuresSinceSuccess,
});
