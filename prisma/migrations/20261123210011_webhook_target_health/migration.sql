-- AlterTable
ALTER TABLE "WebhookSubscription" ADD COLUMN     "failingWarnedAt" TIMESTAMPTZ(3),
ADD COLUMN     "failuresSinceSuccess" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "lastFailureAt" TIMESTAMPTZ(3),
ADD COLUMN     "lastSuccessAt" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "WebhookDelivery_subscriptionId_state_nextAttemptAt_idx" ON "WebhookDelivery"("subscriptionId", "state", "nextAttemptAt");


-- Hand-written: the health of existing subscriptions, from the attempts already logged.
UPDATE "WebhookSubscription" s
   SET "lastSuccessAt" = h."lastSuccessAt", "lastFailureAt" = h."lastFailureAt", "failuresSinceSuccess" = h."failures"
  FROM (SELECT d."subscriptionId",
               max(a."startedAt") FILTER (WHERE a."errorClass" IS NULL) AS "lastSuccessAt",
               max(a."startedAt") FILTER (WHERE a."errorClass" IS NOT NULL) AS "lastFailureAt",
               count(*) FILTER (WHERE a."errorClass" IS NOT NULL AND a."startedAt" > coalesce(
                 (SELECT max(b."startedAt") FROM "WebhookAttempt" b JOIN "WebhookDelivery" e ON e."id" = b."deliveryId"
                   WHERE e."subscriptionId" = d."subscriptionId" AND b."errorClass" IS NULL), '-infinity'))::int AS "failures"
          FROM "WebhookAttempt" a JOIN "WebhookDelivery" d ON d."id" = a."deliveryId"
         WHERE a."errorClass" IS NULL OR a."errorClass" NOT IN ('subscription_deleted', 'subject_gone')
         GROUP BY d."subscriptionId") h
 WHERE s."id" = h."subscriptionId";
