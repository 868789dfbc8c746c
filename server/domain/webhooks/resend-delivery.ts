/**
 * An operator's re-send of a dropped delivery from the Webhook Delivery Logs. The spec has no
 * replay for integrators ("no dead-letter queue and no replay"); this is the portal's manual way
 * back after the receiver is fixed. The delivery gets a fresh round of attempts (attempt numbers
 * continue) and, like every attempt, sends the subject's state at send time, not the state when
 * the event happened.
 */
import { errorText } from "@/i18n/error-text";
import { database, Prisma } from "@/server/db/client";
import type { Actor } from "@/server/domain/actor";
import { recordAuditEvent } from "@/server/domain/audit/record";
import { ConflictError, NotFoundError } from "@/server/domain/errors";
import { log } from "@/server/log";
import { DEFAULT_MAX_ATTEMPTS } from "./deliver-attempt";
import type { DeliveryLogScope } from "./delivery-logs";

/** Attempts a re-send adds: the spec's round of five. */
const RESEND_ROUND_ATTEMPTS = DEFAULT_MAX_ATTEMPTS;

type LockedDelivery = {
  id: string;
  state: "PENDING" | "SUCCEEDED" | "FAILED";
  attemptCount: number;
  organisationId: string;
  eventType: string;
  target: string;
  subscriptionDeleted: boolean;
};

export type ResendResult = { deliveryId: string; attemptCount: number; maxAttempts: number };

/** The delivery-log scope (delivery-logs.ts) as SQL over the delivery d and its subscription s. */
function scopeSql(scope: DeliveryLogScope): Prisma.Sql | null {
  if ("pharmacyIds" in scope) {
    if (scope.pharmacyIds.length === 0) return null;
    return Prisma.sql`d."pharmacyId" IN (${Prisma.join([...scope.pharmacyIds])}) AND s."scope" = 'PHARMACY'`;
  }
  const pharmacy = scope.pharmacyId !== undefined ? Prisma.sql` AND d."pharmacyId" = ${scope.pharmacyId}` : Prisma.empty;
  return Prisma.sql`d."organisationId" = ${scope.organisationId} AND s."scope" = 'ORGANISATION'
                    AND s."organisationId" = ${scope.organisationId}${pharmacy}`;
}

/**
 * Re-sends a FAILED delivery of the scope's subscriptions (as the logs show them: a pharmacy
 * portal's pharmacies, or the admin tool's organisation): PENDING again, due now, `maxAttempts`
 * raised to attemptCount + 5, a WebhookDeliveryResend row naming who asked, and an audit event, all
 * in one transaction under the delivery's row lock, so concurrent re-sends of one delivery give
 * exactly one. Then the delivery engine is told with `announce` (the caller's: an Inngest event, or
 * a wake-up of the embedded runner).
 *
 * NotFoundError: unknown or outside the scope. ConflictError: not permanently failed (pending or
 * succeeded), or its subscription was deleted.
 */
export async function resendWebhookDelivery(
  input: DeliveryLogScope & { deliveryId: string; actor: Actor; announce: (deliveryIds: string[]) => Promise<void> },
): Promise<ResendResult> {
  const db = await database();
  const scope = scopeSql(input);
  if (!scope) throw new NotFoundError();
  const result = await db.$transaction(async (tx) => {
    const [delivery] = await tx.$queryRaw<LockedDelivery[]>`
      SELECT d."id", d."state"::text AS "state", d."attemptCount", d."organisationId", d."eventType", s."target",
             (s."deletedAt" IS NOT NULL) AS "subscriptionDeleted"
        FROM "WebhookDelivery" d
        JOIN "WebhookSubscription" s ON s."id" = d."subscriptionId"
       WHERE d."id" = ${input.deliveryId} AND ${scope}
         FOR UPDATE OF d`;
    if (!delivery) throw new NotFoundError();
    if (delivery.state !== "FAILED") {
      throw new ConflictError(
        errorText(delivery.state === "PENDING" ? "webhooks.resendPending" : "webhooks.resendSucceeded"),
        { code: "delivery_not_failed", details: { state: delivery.state.toLowerCase() } },
      );
    }
    if (delivery.subscriptionDeleted) {
      throw new ConflictError(errorText("webhooks.resendDeleted"));
    }
    const maxAttempts = delivery.attemptCount + RESEND_ROUND_ATTEMPTS;
    // Due at the database's now(), the clock the delivery engine claims by.
    await tx.$executeRaw`
      UPDATE "WebhookDelivery"
         SET "state" = 'PENDING', "maxAttempts" = ${maxAttempts}, "nextAttemptAt" = now(), "updatedAt" = now()
       WHERE "id" = ${delivery.id}`;
    await tx.webhookDeliveryResend.create({
      data: {
        deliveryId: delivery.id,
        userId: input.actor.type === "USER" ? input.actor.userId : null,
        apiKeyId: input.actor.type === "API_KEY" ? input.actor.apiKeyId : null,
      },
    });
    await recordAuditEvent(tx, delivery.organisationId, input.actor, {
      entity: "webhook_delivery",
      entityId: delivery.id,
      action: "resend_requested",
      values: { eventType: delivery.eventType, target: delivery.target, attempts: RESEND_ROUND_ATTEMPTS },
      summary: `Re-send of the ${delivery.eventType} delivery to ${delivery.target} requested (${RESEND_ROUND_ATTEMPTS} more attempts)`,
      details: { eventType: delivery.eventType, target: delivery.target, maxAttempts },
    });
    return { deliveryId: delivery.id, attemptCount: delivery.attemptCount, maxAttempts };
  });
  // After commit. The row is due either way: a failed announcement only delays it to the next poll
  // (embedded runner) or the overdue sweep (Inngest), so it does not fail the re-send.
  try {
    await input.announce([result.deliveryId]);
  } catch (error) {
    log.warn("re-sent webhook delivery could not be announced; it is picked up later", { deliveryId: result.deliveryId, error });
  }
  return result;
}
