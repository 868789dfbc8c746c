-- CreateTable
CREATE TABLE "ShopifyWebhookRefusal" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "webhookId" TEXT,
    "shopifyOrderId" TEXT,
    "reason" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShopifyWebhookRefusal_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ShopifyWebhookRefusal_shopId_createdAt_idx" ON "ShopifyWebhookRefusal"("shopId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ShopifyWebhookRefusal_shopId_webhookId_key" ON "ShopifyWebhookRefusal"("shopId", "webhookId");

-- AddForeignKey
ALTER TABLE "ShopifyWebhookRefusal" ADD CONSTRAINT "ShopifyWebhookRefusal_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

