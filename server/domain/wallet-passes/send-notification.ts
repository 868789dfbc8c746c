import { database, type Db } from "@/server/db/client";
import { log } from "@/server/log";
import { NOTIFICATION_STATUS } from "./push-notifications";
import { pushPassUpdate } from "./push-pass-update";
import { passUpdatePusher, type PassUpdatePusher } from "./pusher";
import { placeholderKeys, renderMessage } from "./render-message";

/**
 * Sends one queued push notification (the wallet_pass.push_notification task): renders its message
 * for the pass's patient, shows it on the pass (lastMessage, with the pass's updatedAt bumped so
 * phones fetch the new version and show it as the change message), tells the pass's registered
 * devices to fetch it (APNs), and marks it sent. A device APNs reports gone is unregistered. A
 * failure is retried by the task runner; after the task's last attempt the notification is failed
 * with the error. Idempotent: a notification that is no longer queued is left as it is.
 * docs/decisions/patients.md#wallet-passes.
 */
export async function sendPushNotification(
  notificationId: string,
  attempt: { last: boolean },
  pusher: PassUpdatePusher | null = passUpdatePusher(),
): Promise<void> {
  const db = await database();
  const notification = await db.pushNotification.findUnique({
    where: { id: notificationId },
    select: {
      status: true,
      message: true,
      walletPass: {
        select: {
          id: true,
          deletedAt: true,
          template: { select: { organisationId: true } },
          shopCustomer: { select: { patientId: true } },
        },
      },
    },
  });
  if (!notification || notification.status !== NOTIFICATION_STATUS.queued) return;
  const pass = notification.walletPass;
  if (pass.deletedAt) {
    await finish(db, notificationId, { status: NOTIFICATION_STATUS.failed, lastError: "The wallet pass was revoked before the notification was sent." });
    return;
  }
  try {
    const fields = await profileFields(db, pass.template.organisationId, pass.shopCustomer.patientId, placeholderKeys(notification.message));
    const rendered = renderMessage(notification.message, fields);
    await db.$transaction([
      db.pushNotification.update({ where: { id: notificationId }, data: { renderedMessage: rendered } }),
      db.walletPass.update({ where: { id: pass.id }, data: { lastMessage: rendered } }),
    ]);
    await pushPassUpdate(pass.id, pusher);
    await finish(db, notificationId, { status: NOTIFICATION_STATUS.sent, sentAt: new Date(), lastError: null });
  } catch (error) {
    const lastError = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
    if (attempt.last) await finish(db, notificationId, { status: NOTIFICATION_STATUS.failed, lastError });
    else await db.pushNotification.updateMany({ where: { id: notificationId, status: NOTIFICATION_STATUS.queued }, data: { lastError } });
    log.warn("wallet pass push notification not sent", { notificationId, last: attempt.last, error: lastError });
    throw error;
  }
}

function finish(db: Db, id: string, data: { status: string; sentAt?: Date; lastError: string | null }) {
  return db.pushNotification.updateMany({ where: { id, status: NOTIFICATION_STATUS.queued }, data });
}

/** The patient's values of the placeholders' keys: their properties, else first_name, last_name, display_name of the profile. */
async function profileFields(db: Db, organisationId: string, patientId: string, keys: string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const [profile, properties] = await Promise.all([
    db.patientProfile.findUnique({ where: { id: patientId }, select: { firstName: true, lastName: true, displayName: true } }),
    db.patientProperty.findMany({
      where: { patientId, field: { organisationId, key: { in: keys } } },
      select: { value: true, field: { select: { key: true } } },
    }),
  ]);
  const fields = new Map<string, string>();
  if (profile?.firstName) fields.set("first_name", profile.firstName);
  if (profile?.lastName) fields.set("last_name", profile.lastName);
  if (profile?.displayName) fields.set("display_name", profile.displayName);
  for (const p of properties) if (p.value !== "") fields.set(p.field.key, p.value);
  return fields;
}
