/** The portal's shapes of the delivery logs: camelCase, uids, dates as Unix seconds (numbers). */
import { unix, unixOrNull } from "@/server/wire/format";
import type {
  DeliveryLogDetail,
  DeliveryLogItem,
  DeliveryLogSubscription,
  DeliveryResendLog,
} from "@/server/domain/webhooks/delivery-logs";

export function presentDeliveryLogItem(item: DeliveryLogItem) {
  return {
    uid: item.id,
    eventType: item.eventType,
    subjectUid: item.subjectId,
    pharmacyUid: item.pharmacyId,
    subscription: {
      uid: item.subscription.id,
      target: item.subscription.target,
      notificationType: item.subscription.notificationType,
      deleted: item.subscription.deleted,
    },
    /** "failed" is a dropped delivery: a permanent failure (it may be re-sent). */
    state: item.state,
    attemptCount: item.attemptCount,
    maxAttempts: item.maxAttempts,
    nextAttemptAt: unixOrNull(item.nextAttemptAt),
    lastAttemptAt: unixOrNull(item.lastAttemptAt),
    createdAt: unix(item.createdAt),
    lastAttempt: item.lastAttempt,
  };
}

const presentResend = (resend: DeliveryResendLog) => ({ createdAt: unix(resend.createdAt), by: resend.by });

export function presentDeliveryLogDetail(detail: DeliveryLogDetail) {
  return {
    ...presentDeliveryLogItem(detail),
    attempts: detail.attempts.map((a) => ({
      attemptNumber: a.attemptNumber,
      startedAt: unix(a.startedAt),
      durationMs: a.durationMs,
      target: a.target,
      responseStatus: a.responseStatus,
      errorClass: a.errorClass,
      errorMessage: a.errorMessage,
      requestBytes: a.requestBytes,
      nextAttemptAt: unixOrNull(a.nextAttemptAt),
    })),
    resends: detail.resends.map(presentResend),
  };
}

export const presentDeliveryLogSubscription = (s: DeliveryLogSubscription) => ({
  uid: s.id,
  pharmacyUid: s.pharmacyId,
  notificationType: s.notificationType,
  target: s.target,
  deleted: s.deleted,
});
