import { database } from "@/server/db/client";
import { FieldErrorCollector } from "@/server/domain/errors";
import { enqueueTask } from "@/server/domain/tasks/enqueue";

/** Notification statuses (docs/decisions/patients.md#wallet-passes): queued → sent | failed. */
export const NOTIFICATION_STATUS = { queued: "queued", sent: "sent", failed: "failed" } as const;

/** Entries of one push notification request at most (G38: no public fact). */
export const PUSH_BATCH_MAX = 100;

export type PushNotificationRequest = { walletPassId: string; message: string };

/**
 * Queues a batch of push notifications, all or nothing: every pass must be a live pass of the
 * organisation (else a field error on that entry's wallet_pass_uid, and nothing is written). Each
 * notification gets its background task in the same transaction (wallet_pass.push_notification:
 * send-notification.ts renders and sends it).
 */
export async function queuePushNotifications(organisationId: string, requests: PushNotificationRequest[]) {
  const db = await database();
  return db.$transaction(async (tx) => {
    const ids = [...new Set(requests.map((r) => r.walletPassId))];
    const live = await tx.walletPass.findMany({
      where: { id: { in: ids }, deletedAt: null, template: { organisationId } },
      select: { id: true },
    });
    const found = new Set(live.map((p) => p.id));
    const errors = new FieldErrorCollector();
    requests.forEach((r, index) => {
      if (!found.has(r.walletPassId)) errors.add([index, "wallet_pass_uid"], "Wallet pass not found.");
    });
    errors.throwIfAny();

    const notifications = [];
    for (const request of requests) {
      const notification = await tx.pushNotification.create({
        data: { walletPassId: request.walletPassId, message: request.message, status: NOTIFICATION_STATUS.queued },
        select: { id: true, walletPassId: true, message: true, status: true, createdAt: true },
      });
      await enqueueTask(tx, "wallet_pass.push_notification", { notificationId: notification.id });
      notifications.push(notification);
    }
    return notifications;
  });
}
