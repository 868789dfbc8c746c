-- CreateEnum
CREATE TYPE "DraftOrderKind" AS ENUM ('RESERVATION', 'PRESCRIPTION_CHECKOUT', 'TREATMENT_CHECKOUT');

-- CreateTable
CREATE TABLE "DraftOrder" (
    "id" TEXT NOT NULL,
    "legacyId" BIGSERIAL NOT NULL,
    "organisationId" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "kind" "DraftOrderKind" NOT NULL,
    "status" TEXT NOT NULL,
    "holdExpiresAt" TIMESTAMPTZ(3),
    "checkoutType" TEXT,
    "checkoutTokenHash" TEXT,
    "patientId" TEXT,
    "shopCustomerId" TEXT,
    "request" JSONB,
    "orderId" TEXT,
    "completedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "DraftOrder_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DraftOrderLine" (
    "id" TEXT NOT NULL,
    "draftOrderId" TEXT NOT NULL,
    "skuId" TEXT NOT NULL,
    "shopSkuId" TEXT,
    "quantity" INTEGER NOT NULL,
    "unitPrice" INTEGER,
    "prescriptionRef" TEXT,
    "anamnesisId" TEXT,

    CONSTRAINT "DraftOrderLine_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DraftPrescription" (
    "id" TEXT NOT NULL,
    "draftOrderId" TEXT NOT NULL,
    "externalRef" TEXT NOT NULL,
    "fileKey" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,

    CONSTRAINT "DraftPrescription_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PatientTokenSecret" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "audience" TEXT NOT NULL,
    "secretSealed" TEXT NOT NULL,
    "createdById" TEXT,
    "lastUsedAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PatientTokenSecret_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "DraftOrder_legacyId_key" ON "DraftOrder"("legacyId");

-- CreateIndex
CREATE UNIQUE INDEX "DraftOrder_checkoutTokenHash_key" ON "DraftOrder"("checkoutTokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "DraftOrder_orderId_key" ON "DraftOrder"("orderId");

-- CreateIndex
CREATE INDEX "DraftOrder_organisationId_status_idx" ON "DraftOrder"("organisationId", "status");

-- CreateIndex
CREATE INDEX "DraftOrderLine_draftOrderId_idx" ON "DraftOrderLine"("draftOrderId");

-- CreateIndex
CREATE INDEX "DraftOrderLine_skuId_idx" ON "DraftOrderLine"("skuId");

-- CreateIndex
CREATE UNIQUE INDEX "DraftPrescription_draftOrderId_externalRef_key" ON "DraftPrescription"("draftOrderId", "externalRef");

-- CreateIndex
CREATE INDEX "PatientTokenSecret_organisationId_idx" ON "PatientTokenSecret"("organisationId");

-- AddForeignKey
ALTER TABLE "DraftOrder" ADD CONSTRAINT "DraftOrder_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DraftOrder" ADD CONSTRAINT "DraftOrder_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DraftOrder" ADD CONSTRAINT "DraftOrder_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "PatientProfile"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DraftOrder" ADD CONSTRAINT "DraftOrder_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DraftOrderLine" ADD CONSTRAINT "DraftOrderLine_draftOrderId_fkey" FOREIGN KEY ("draftOrderId") REFERENCES "DraftOrder"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DraftOrderLine" ADD CONSTRAINT "DraftOrderLine_skuId_fkey" FOREIGN KEY ("skuId") REFERENCES "Sku"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DraftPrescription" ADD CONSTRAINT "DraftPrescription_draftOrderId_fkey" FOREIGN KEY ("draftOrderId") REFERENCES "DraftOrder"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PatientTokenSecret" ADD CONSTRAINT "PatientTokenSecret_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Hand-written: stock held by reservations is summed per SKU over live holds (live-stock, reserve).
CREATE INDEX "DraftOrder_live_holds_idx" ON "DraftOrder" ("holdExpiresAt") WHERE "status" = 'reserved';
