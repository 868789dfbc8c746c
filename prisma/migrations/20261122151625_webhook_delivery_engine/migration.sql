-- DropForeignKey
ALTER TABLE "WebhookDelivery" DROP CONSTRAINT "WebhookDelivery_outboxEventId_fkey";

-- DropForeignKey
ALTER TABLE "WebhookAttempt" DROP CONSTRAINT "WebhookAttempt_deliveryId_fkey";

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "eventType" TEXT NOT NULL,
ADD COLUMN     "lastAttemptAt" TIMESTAMPTZ(3),
ADD COLUMN     "maxAttempts" INTEGER NOT NULL DEFAULT 5,
ADD COLUMN     "organisationId" TEXT NOT NULL,
ADD COLUMN     "pharmacyId" TEXT;

-- AlterTable
ALTER TABLE "WebhookAttempt" ADD COLUMN     "requestBytes" INTEGER,
ADD COLUMN     "target" TEXT NOT NULL;

-- CreateTable
CREATE TABLE "WebhookDeliveryResend" (
    "id" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "userId" TEXT,
    "apiKeyId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDeliveryResend_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookDeliveryResend_deliveryId_idx" ON "WebhookDeliveryResend"("deliveryId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_outboxEventId_idx" ON "WebhookDelivery"("outboxEventId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_pharmacyId_createdAt_idx" ON "WebhookDelivery"("pharmacyId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_organisationId_createdAt_idx" ON "WebhookDelivery"("organisationId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_createdAt_idx" ON "WebhookDelivery"("createdAt");

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_outboxEventId_fkey" FOREIGN KEY ("outboxEventId") REFERENCES "OutboxEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDeliveryResend" ADD CONSTRAINT "WebhookDeliveryResend_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written: wake the webhook dispatcher when an outbox event commits. NOTIFY inside a
-- transaction is delivered only at commit (and once per transaction for equal payloads), which is
-- exactly "after the change is durable", in every server process that listens.
CREATE FUNCTION "outbox_event_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('rx_outbox', '');
  RETURN NULL;
END
$$;
CREATE TRIGGER "OutboxEvent_notify" AFTER INSERT ON "OutboxEvent"
  FOR EACH STATEMENT EXECUTE FUNCTION "outbox_event_notify"();
-- Hand-written: the dispatcher's queue is the events not yet fanned out.
CREATE INDEX "OutboxEvent_undispatched_idx" ON "OutboxEvent" ("createdAt") WHERE "dispatchedAt" IS NULL;
