-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "HiddenSkuType" AS ENUM ('NONE', 'DIGITAL', 'PHYSICAL');

-- CreateEnum
CREATE TYPE "UserRole" AS ENUM ('ADMIN', 'PHARMACIST');

-- CreateEnum
CREATE TYPE "ApiKeyFamily" AS ENUM ('MANAGEMENT', 'PUBLIC', 'PHARMACY');

-- CreateEnum
CREATE TYPE "StockMovementReason" AS ENUM ('STOCK_UPDATE', 'ORDER_COMPLETION', 'INITIAL');

-- CreateEnum
CREATE TYPE "ActorType" AS ENUM ('API_KEY', 'USER', 'SYSTEM');

-- CreateEnum
CREATE TYPE "QuestionnaireResponseStatus" AS ENUM ('IN_PROGRESS', 'COMPLETED');

-- CreateEnum
CREATE TYPE "PrescriptionSource" AS ENUM ('DOCTOR', 'INLINE_PDF', 'EXTERNAL');

-- CreateEnum
CREATE TYPE "IssueThreadStatus" AS ENUM ('OPEN', 'RESOLVED');

-- CreateEnum
CREATE TYPE "PayoutStatus" AS ENUM ('PROJECTED', 'ROUTED');

-- CreateEnum
CREATE TYPE "SubscriptionScope" AS ENUM ('PHARMACY', 'ORGANISATION');

-- CreateEnum
CREATE TYPE "DeliveryState" AS ENUM ('PENDING', 'SUCCEEDED', 'FAILED');

-- CreateTable
CREATE TABLE "Organisation" (
    "id" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Organisation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Shop" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Shop_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PharmacyGroup" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PharmacyGroup_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Pharmacy" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "groupId" TEXT,
    "displayName" TEXT NOT NULL,
    "email" TEXT,
    "hiddenSkuType" "HiddenSkuType" NOT NULL DEFAULT 'NONE',
    "locationId" TEXT,
    "systemConnector" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Pharmacy_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "role" "UserRole" NOT NULL,
    "organisationId" TEXT NOT NULL,
    "pharmacyId" TEXT,
    "pharmacyGroupId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL,
    "family" "ApiKeyFamily" NOT NULL,
    "displayName" TEXT NOT NULL,
    "keyHash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "permissions" TEXT[],
    "organisationId" TEXT NOT NULL,
    "pharmacyId" TEXT,
    "pharmacyGroupId" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Product" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "handle" TEXT,
    "prescriptionRequired" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "deletedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Product_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Sku" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "pzn" TEXT,
    "digital" BOOLEAN NOT NULL DEFAULT false,
    "dosage" TEXT,
    "unit" TEXT,
    "pcs" INTEGER,
    "weight" DOUBLE PRECISION,
    "therapyDuration" INTEGER,
    "standardSellingUnit" DOUBLE PRECISION,
    "prescriptionName" TEXT,
    "skipForPharmacyOrders" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "deletedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Sku_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShopProduct" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShopProduct_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShopSku" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "shopProductId" TEXT NOT NULL,
    "skuId" TEXT,
    "shopSku" TEXT,
    "shopVariationId" TEXT,
    "price" INTEGER NOT NULL,
    "imageUrl" TEXT,
    "lastSyncedStock" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "deletedAt" TIMESTAMPTZ(3),

    CONSTRAINT "ShopSku_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PharmacySku" (
    "id" TEXT NOT NULL,
    "pharmacyId" TEXT NOT NULL,
    "skuId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "price" INTEGER NOT NULL,
    "stock" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "deletedAt" TIMESTAMPTZ(3),

    CONSTRAINT "PharmacySku_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "StockMovement" (
    "id" TEXT NOT NULL,
    "sequence" BIGSERIAL NOT NULL,
    "pharmacySkuId" TEXT NOT NULL,
    "delta" INTEGER NOT NULL,
    "stockAfter" INTEGER NOT NULL,
    "reason" "StockMovementReason" NOT NULL,
    "pharmacyOrderId" TEXT,
    "actorType" "ActorType" NOT NULL,
    "actorApiKeyId" TEXT,
    "actorUserId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StockMovement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PatientProfile" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "firstName" TEXT,
    "lastName" TEXT,
    "email" TEXT,
    "dateOfBirth" DATE,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PatientProfile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShopCustomer" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "shopCustomerId" TEXT NOT NULL,
    "patientId" TEXT NOT NULL,
    "email" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShopCustomer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Doctor" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "email" TEXT,
    "canSignQes" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Doctor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PatientFieldDefinition" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'text',
    "source" TEXT NOT NULL DEFAULT 'shop',

    CONSTRAINT "PatientFieldDefinition_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PatientProperty" (
    "id" TEXT NOT NULL,
    "patientId" TEXT NOT NULL,
    "fieldId" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PatientProperty_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Questionnaire" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "model" JSONB NOT NULL,
    "theme" JSONB,
    "draftModel" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Questionnaire_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QuestionnaireResponse" (
    "id" TEXT NOT NULL,
    "questionnaireId" TEXT NOT NULL,
    "patientId" TEXT NOT NULL,
    "status" "QuestionnaireResponseStatus" NOT NULL,
    "data" JSONB NOT NULL,
    "intent" TEXT,
    "completedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "QuestionnaireResponse_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Order" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "patientId" TEXT NOT NULL,
    "customerEmail" TEXT,
    "deliveryAddress" JSONB NOT NULL,
    "invoiceAddress" JSONB NOT NULL,
    "shippingCostAmount" INTEGER,
    "shippingCostCurrency" TEXT,
    "priority" INTEGER NOT NULL DEFAULT 0,
    "onHold" BOOLEAN NOT NULL DEFAULT false,
    "holdComment" TEXT,
    "doctorId" TEXT,
    "pharmacyId" TEXT,
    "pharmacyEmail" TEXT,
    "referralScanUid" TEXT,
    "additionalDetails" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Order_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShopOrder" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShopOrder_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShopShippingMethod" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShopShippingMethod_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShopOrderShippingMethod" (
    "shopOrderId" TEXT NOT NULL,
    "shopShippingMethodId" TEXT NOT NULL,

    CONSTRAINT "ShopOrderShippingMethod_pkey" PRIMARY KEY ("shopOrderId","shopShippingMethodId")
);

-- CreateTable
CREATE TABLE "PharmacyShippingMethodMapping" (
    "id" TEXT NOT NULL,
    "pharmacyId" TEXT NOT NULL,
    "shopShippingMethodId" TEXT NOT NULL,
    "identifierForPharmacy" TEXT NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PharmacyShippingMethodMapping_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Fulfillment" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'OPEN',
    "destinationPharmacyId" TEXT,
    "locationId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "cancelledAt" TIMESTAMPTZ(3),

    CONSTRAINT "Fulfillment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderItem" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "fulfillmentId" TEXT NOT NULL,
    "externalId" TEXT NOT NULL,
    "skuId" TEXT NOT NULL,
    "shopSkuId" TEXT,
    "quantity" INTEGER NOT NULL,
    "totalPaidAmount" INTEGER NOT NULL,
    "totalPaidCurrency" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'OPEN',
    "prescriptionId" TEXT,
    "prescriptionReference" TEXT,
    "anamnesisId" TEXT,
    "fulfillmentMethod" TEXT,
    "skipValidation" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OrderItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Prescription" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "orderId" TEXT,
    "patientId" TEXT NOT NULL,
    "doctorId" TEXT,
    "status" TEXT NOT NULL,
    "source" "PrescriptionSource" NOT NULL,
    "renderedFileKey" TEXT,
    "signedFileKey" TEXT,
    "signedFileSha256" TEXT,
    "signedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "deletedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Prescription_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PrescriptionLine" (
    "id" TEXT NOT NULL,
    "prescriptionId" TEXT NOT NULL,
    "orderItemId" TEXT,
    "skuId" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "dosage" TEXT,
    "anamnesisId" TEXT,

    CONSTRAINT "PrescriptionLine_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PrescriptionHistory" (
    "id" TEXT NOT NULL,
    "prescriptionId" TEXT NOT NULL,
    "fromStatus" TEXT,
    "toStatus" TEXT NOT NULL,
    "actorType" "ActorType" NOT NULL,
    "actorApiKeyId" TEXT,
    "actorUserId" TEXT,
    "note" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PrescriptionHistory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PharmacyOrder" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "fulfillmentId" TEXT NOT NULL,
    "pharmacyId" TEXT NOT NULL,
    "prescriptionId" TEXT,
    "status" TEXT NOT NULL,
    "externalStatus" TEXT NOT NULL DEFAULT 'OPEN',
    "deliveryType" TEXT NOT NULL DEFAULT 'shipping',
    "prepaid" INTEGER NOT NULL DEFAULT 0,
    "shippingCostsAmount" INTEGER,
    "shippingCostsCurrency" TEXT,
    "searchText" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PharmacyOrder_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PharmacyOrderTally" (
    "id" BIGSERIAL NOT NULL,
    "pharmacyId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "delta" INTEGER NOT NULL,

    CONSTRAINT "PharmacyOrderTally_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PharmacyOrderItem" (
    "id" TEXT NOT NULL,
    "pharmacyOrderId" TEXT NOT NULL,
    "orderItemId" TEXT NOT NULL,
    "pharmacySkuId" TEXT,
    "amount" INTEGER NOT NULL,
    "totalPaidAmount" INTEGER NOT NULL,

    CONSTRAINT "PharmacyOrderItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PharmacyOrderHistory" (
    "id" TEXT NOT NULL,
    "pharmacyOrderId" TEXT NOT NULL,
    "fromStatus" TEXT,
    "toStatus" TEXT NOT NULL,
    "actorType" "ActorType" NOT NULL,
    "actorApiKeyId" TEXT,
    "actorUserId" TEXT,
    "comment" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PharmacyOrderHistory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AdminIssueThread" (
    "id" TEXT NOT NULL,
    "pharmacyOrderId" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "status" "IssueThreadStatus" NOT NULL DEFAULT 'OPEN',
    "openedByType" "ActorType" NOT NULL,
    "openedByApiKeyId" TEXT,
    "openedByUserId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolvedAt" TIMESTAMPTZ(3),

    CONSTRAINT "AdminIssueThread_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AdminIssueMessage" (
    "id" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "authorType" "ActorType" NOT NULL,
    "authorUserId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AdminIssueMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Shipment" (
    "id" TEXT NOT NULL,
    "pharmacyOrderId" TEXT NOT NULL,
    "sequenceNumber" INTEGER NOT NULL,
    "trackingUrl" TEXT,
    "trackingNumber" TEXT,
    "carrierName" TEXT,
    "isTest" BOOLEAN NOT NULL DEFAULT false,
    "returnTrackingNumber" TEXT,
    "returnLabelExpiry" DATE,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Shipment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Payout" (
    "id" TEXT NOT NULL,
    "pharmacyOrderId" TEXT NOT NULL,
    "receiverPharmacyId" TEXT NOT NULL,
    "status" "PayoutStatus" NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "componentType" TEXT NOT NULL,
    "routingDescription" TEXT,
    "providerRouteId" TEXT,
    "routingCreatedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Payout_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookSubscription" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "scope" "SubscriptionScope" NOT NULL,
    "pharmacyId" TEXT,
    "notificationType" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "headerKey" TEXT,
    "headerValueEncrypted" TEXT,
    "secretEncrypted" TEXT NOT NULL,
    "payloadVersion" TEXT NOT NULL DEFAULT '1',
    "metaData" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "deletedAt" TIMESTAMPTZ(3),

    CONSTRAINT "WebhookSubscription_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OutboxEvent" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "pharmacyId" TEXT,
    "eventType" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "data" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dispatchedAt" TIMESTAMPTZ(3),

    CONSTRAINT "OutboxEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "subscriptionId" TEXT NOT NULL,
    "outboxEventId" TEXT NOT NULL,
    "state" "DeliveryState" NOT NULL DEFAULT 'PENDING',
    "attemptCount" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "attemptNumber" INTEGER NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "responseStatus" INTEGER,
    "errorClass" TEXT,
    "errorMessage" TEXT,
    "nextAttemptAt" TIMESTAMPTZ(3),

    CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WaitingRoomEntry" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "patientId" TEXT NOT NULL,
    "preferredDoctorId" TEXT,
    "visitReason" TEXT,
    "status" TEXT NOT NULL DEFAULT 'waiting',
    "videoRoomId" TEXT,
    "allocatedAt" TIMESTAMPTZ(3),
    "completedAt" TIMESTAMPTZ(3),
    "cancelledAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WaitingRoomEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WalletPassTemplate" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "passType" TEXT NOT NULL DEFAULT 'generic',
    "requiresSignedPrescription" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WalletPassTemplate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WalletPass" (
    "id" TEXT NOT NULL,
    "templateId" TEXT NOT NULL,
    "shopCustomerId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "barcodeHash" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "deletedAt" TIMESTAMPTZ(3),

    CONSTRAINT "WalletPass_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PushNotification" (
    "id" TEXT NOT NULL,
    "walletPassId" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PushNotification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TelemedicineProvider" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "allowNonQesSignedPrescriptions" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TelemedicineProvider_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Shop_identifier_key" ON "Shop"("identifier");

-- CreateIndex
CREATE INDEX "Shop_organisationId_idx" ON "Shop"("organisationId");

-- CreateIndex
CREATE INDEX "PharmacyGroup_organisationId_idx" ON "PharmacyGroup"("organisationId");

-- CreateIndex
CREATE INDEX "Pharmacy_organisationId_idx" ON "Pharmacy"("organisationId");

-- CreateIndex
CREATE INDEX "Pharmacy_groupId_idx" ON "Pharmacy"("groupId");

-- CreateIndex
CREATE UNIQUE INDEX "Pharmacy_organisationId_locationId_key" ON "Pharmacy"("organisationId", "locationId");

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_keyHash_key" ON "ApiKey"("keyHash");

-- CreateIndex
CREATE INDEX "ApiKey_organisationId_family_idx" ON "ApiKey"("organisationId", "family");

-- CreateIndex
CREATE INDEX "Product_organisationId_createdAt_idx" ON "Product"("organisationId", "createdAt");

-- CreateIndex
CREATE INDEX "Sku_organisationId_createdAt_idx" ON "Sku"("organisationId", "createdAt");

-- CreateIndex
CREATE INDEX "Sku_productId_idx" ON "Sku"("productId");

-- CreateIndex
CREATE INDEX "ShopProduct_productId_idx" ON "ShopProduct"("productId");

-- CreateIndex
CREATE UNIQUE INDEX "ShopProduct_shopId_externalId_key" ON "ShopProduct"("shopId", "externalId");

-- CreateIndex
CREATE INDEX "ShopSku_shopId_createdAt_idx" ON "ShopSku"("shopId", "createdAt");

-- CreateIndex
CREATE INDEX "ShopSku_skuId_idx" ON "ShopSku"("skuId");

-- CreateIndex
CREATE INDEX "PharmacySku_pharmacyId_createdAt_idx" ON "PharmacySku"("pharmacyId", "createdAt");

-- CreateIndex
CREATE INDEX "PharmacySku_skuId_idx" ON "PharmacySku"("skuId");

-- CreateIndex
CREATE INDEX "StockMovement_pharmacySkuId_sequence_idx" ON "StockMovement"("pharmacySkuId", "sequence");

-- CreateIndex
CREATE INDEX "StockMovement_pharmacyOrderId_idx" ON "StockMovement"("pharmacyOrderId");

-- CreateIndex
CREATE INDEX "PatientProfile_organisationId_email_idx" ON "PatientProfile"("organisationId", "email");

-- CreateIndex
CREATE INDEX "ShopCustomer_patientId_idx" ON "ShopCustomer"("patientId");

-- CreateIndex
CREATE UNIQUE INDEX "ShopCustomer_shopId_shopCustomerId_key" ON "ShopCustomer"("shopId", "shopCustomerId");

-- CreateIndex
CREATE INDEX "Doctor_organisationId_idx" ON "Doctor"("organisationId");

-- CreateIndex
CREATE UNIQUE INDEX "PatientFieldDefinition_organisationId_key_key" ON "PatientFieldDefinition"("organisationId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "PatientProperty_patientId_fieldId_key" ON "PatientProperty"("patientId", "fieldId");

-- CreateIndex
CREATE INDEX "Questionnaire_organisationId_idx" ON "Questionnaire"("organisationId");

-- CreateIndex
CREATE INDEX "QuestionnaireResponse_patientId_idx" ON "QuestionnaireResponse"("patientId");

-- CreateIndex
CREATE INDEX "Order_organisationId_createdAt_idx" ON "Order"("organisationId", "createdAt");

-- CreateIndex
CREATE INDEX "Order_organisationId_updatedAt_idx" ON "Order"("organisationId", "updatedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Order_organisationId_externalId_key" ON "Order"("organisationId", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "ShopOrder_orderId_key" ON "ShopOrder"("orderId");

-- CreateIndex
CREATE INDEX "ShopOrder_shopId_externalId_idx" ON "ShopOrder"("shopId", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "ShopShippingMethod_shopId_externalId_key" ON "ShopShippingMethod"("shopId", "externalId");

-- CreateIndex
CREATE UNIQUE INDEX "PharmacyShippingMethodMapping_pharmacyId_shopShippingMethod_key" ON "PharmacyShippingMethodMapping"("pharmacyId", "shopShippingMethodId");

-- CreateIndex
CREATE UNIQUE INDEX "Fulfillment_orderId_externalId_key" ON "Fulfillment"("orderId", "externalId");

-- CreateIndex
CREATE INDEX "OrderItem_fulfillmentId_idx" ON "OrderItem"("fulfillmentId");

-- CreateIndex
CREATE INDEX "OrderItem_prescriptionId_idx" ON "OrderItem"("prescriptionId");

-- CreateIndex
CREATE UNIQUE INDEX "OrderItem_orderId_externalId_key" ON "OrderItem"("orderId", "externalId");

-- CreateIndex
CREATE INDEX "Prescription_organisationId_status_idx" ON "Prescription"("organisationId", "status");

-- CreateIndex
CREATE INDEX "Prescription_orderId_idx" ON "Prescription"("orderId");

-- CreateIndex
CREATE INDEX "PrescriptionLine_prescriptionId_idx" ON "PrescriptionLine"("prescriptionId");

-- CreateIndex
CREATE INDEX "PrescriptionHistory_prescriptionId_createdAt_idx" ON "PrescriptionHistory"("prescriptionId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "PharmacyOrder_name_key" ON "PharmacyOrder"("name");

-- CreateIndex
CREATE UNIQUE INDEX "PharmacyOrder_fulfillmentId_key" ON "PharmacyOrder"("fulfillmentId");

-- CreateIndex
CREATE INDEX "PharmacyOrder_pharmacyId_createdAt_id_idx" ON "PharmacyOrder"("pharmacyId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "PharmacyOrder_pharmacyId_status_createdAt_id_idx" ON "PharmacyOrder"("pharmacyId", "status", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "PharmacyOrder_orderId_idx" ON "PharmacyOrder"("orderId");

-- CreateIndex
CREATE INDEX "PharmacyOrderTally_pharmacyId_status_idx" ON "PharmacyOrderTally"("pharmacyId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "PharmacyOrderItem_pharmacyOrderId_orderItemId_key" ON "PharmacyOrderItem"("pharmacyOrderId", "orderItemId");

-- CreateIndex
CREATE INDEX "PharmacyOrderHistory_pharmacyOrderId_createdAt_idx" ON "PharmacyOrderHistory"("pharmacyOrderId", "createdAt");

-- CreateIndex
CREATE INDEX "AdminIssueThread_pharmacyOrderId_idx" ON "AdminIssueThread"("pharmacyOrderId");

-- CreateIndex
CREATE INDEX "AdminIssueMessage_threadId_createdAt_idx" ON "AdminIssueMessage"("threadId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Shipment_pharmacyOrderId_sequenceNumber_key" ON "Shipment"("pharmacyOrderId", "sequenceNumber");

-- CreateIndex
CREATE INDEX "Payout_receiverPharmacyId_status_idx" ON "Payout"("receiverPharmacyId", "status");

-- CreateIndex
CREATE INDEX "Payout_pharmacyOrderId_idx" ON "Payout"("pharmacyOrderId");

-- CreateIndex
CREATE INDEX "WebhookSubscription_organisationId_notificationType_idx" ON "WebhookSubscription"("organisationId", "notificationType");

-- CreateIndex
CREATE INDEX "WebhookSubscription_pharmacyId_notificationType_idx" ON "WebhookSubscription"("pharmacyId", "notificationType");

-- CreateIndex
CREATE INDEX "OutboxEvent_dispatchedAt_createdAt_idx" ON "OutboxEvent"("dispatchedAt", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_state_nextAttemptAt_idx" ON "WebhookDelivery"("state", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_subscriptionId_outboxEventId_key" ON "WebhookDelivery"("subscriptionId", "outboxEventId");

-- CreateIndex
CREATE INDEX "WebhookAttempt_startedAt_idx" ON "WebhookAttempt"("startedAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookAttempt_deliveryId_attemptNumber_key" ON "WebhookAttempt"("deliveryId", "attemptNumber");

-- CreateIndex
CREATE INDEX "WaitingRoomEntry_organisationId_status_createdAt_idx" ON "WaitingRoomEntry"("organisationId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "WalletPassTemplate_shopId_idx" ON "WalletPassTemplate"("shopId");

-- CreateIndex
CREATE UNIQUE INDEX "WalletPass_barcodeHash_key" ON "WalletPass"("barcodeHash");

-- CreateIndex
CREATE INDEX "WalletPass_shopCustomerId_idx" ON "WalletPass"("shopCustomerId");

-- CreateIndex
CREATE INDEX "PushNotification_walletPassId_idx" ON "PushNotification"("walletPassId");

-- CreateIndex
CREATE UNIQUE INDEX "TelemedicineProvider_organisationId_identifier_key" ON "TelemedicineProvider"("organisationId", "identifier");

-- AddForeignKey
ALTER TABLE "Shop" ADD CONSTRAINT "Shop_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PharmacyGroup" ADD CONSTRAINT "PharmacyGroup_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Pharmacy" ADD CONSTRAINT "Pharmacy_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Pharmacy" ADD CONSTRAINT "Pharmacy_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "PharmacyGroup"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_pharmacyId_fkey" FOREIGN KEY ("pharmacyId") REFERENCES "Pharmacy"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "User" ADD CONSTRAINT "User_pharmacyGroupId_fkey" FOREIGN KEY ("pharmacyGroupId") REFERENCES "PharmacyGroup"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_pharmacyId_fkey" FOREIGN KEY ("pharmacyId") REFERENCES "Pharmacy"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_pharmacyGroupId_fkey" FOREIGN KEY ("pharmacyGroupId") REFERENCES "PharmacyGroup"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Product" ADD CONSTRAINT "Product_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Sku" ADD CONSTRAINT "Sku_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Sku" ADD CONSTRAINT "Sku_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShopProduct" ADD CONSTRAINT "ShopProduct_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShopProduct" ADD CONSTRAINT "ShopProduct_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShopSku" ADD CONSTRAINT "ShopSku_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShopSku" ADD CONSTRAINT "ShopSku_shopProductId_fkey" FOREIGN KEY ("shopProductId") REFERENCES "ShopProduct"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShopSku" ADD CONSTRAINT "ShopSku_skuId_fkey" FOREIGN KEY ("skuId") REFERENCES "Sku"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PharmacySku" ADD CONSTRAINT "PharmacySku_pharmacyId_fkey" FOREIGN KEY ("pharmacyId") REFERENCES "Pharmacy"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PharmacySku" ADD CONSTRAINT "PharmacySku_skuId_fkey" FOREIGN KEY ("skuId") REFERENCES "Sku"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StockMovement" ADD CONSTRAINT "StockMovement_pharmacySkuId_fkey" FOREIGN KEY ("pharmacySkuId") REFERENCES "PharmacySku"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "StockMovement" ADD CONSTRAINT "StockMovement_pharmacyOrderId_fkey" FOREIGN KEY ("pharmacyOrderId") REFERENCES "PharmacyOrder"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PatientProfile" ADD CONSTRAINT "PatientProfile_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShopCustomer" ADD CONSTRAINT "ShopCustomer_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShopCustomer" ADD CONSTRAINT "ShopCustomer_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "PatientProfile"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Doctor" ADD CONSTRAINT "Doctor_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PatientFieldDefinition" ADD CONSTRAINT "PatientFieldDefinition_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PatientProperty" ADD CONSTRAINT "PatientProperty_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "PatientProfile"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PatientProperty" ADD CONSTRAINT "PatientProperty_fieldId_fkey" FOREIGN KEY ("fieldId") REFERENCES "PatientFieldDefinition"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Questionnaire" ADD CONSTRAINT "Questionnaire_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QuestionnaireResponse" ADD CONSTRAINT "QuestionnaireResponse_questionnaireId_fkey" FOREIGN KEY ("questionnaireId") REFERENCES "Questionnaire"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "QuestionnaireResponse" ADD CONSTRAINT "QuestionnaireResponse_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "PatientProfile"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Order" ADD CONSTRAINT "Order_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Order" ADD CONSTRAINT "Order_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "PatientProfile"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Order" ADD CONSTRAINT "Order_doctorId_fkey" FOREIGN KEY ("doctorId") REFERENCES "Doctor"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Order" ADD CONSTRAINT "Order_pharmacyId_fkey" FOREIGN KEY ("pharmacyId") REFERENCES "Pharmacy"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShopOrder" ADD CONSTRAINT "ShopOrder_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShopOrder" ADD CONSTRAINT "ShopOrder_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShopShippingMethod" ADD CONSTRAINT "ShopShippingMethod_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShopOrderShippingMethod" ADD CONSTRAINT "ShopOrderShippingMethod_shopOrderId_fkey" FOREIGN KEY ("shopOrderId") REFERENCES "ShopOrder"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShopOrderShippingMethod" ADD CONSTRAINT "ShopOrderShippingMethod_shopShippingMethodId_fkey" FOREIGN KEY ("shopShippingMethodId") REFERENCES "ShopShippingMethod"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PharmacyShippingMethodMapping" ADD CONSTRAINT "PharmacyShippingMethodMapping_pharmacyId_fkey" FOREIGN KEY ("pharmacyId") REFERENCES "Pharmacy"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PharmacyShippingMethodMapping" ADD CONSTRAINT "PharmacyShippingMethodMapping_shopShippingMethodId_fkey" FOREIGN KEY ("shopShippingMethodId") REFERENCES "ShopShippingMethod"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Fulfillment" ADD CONSTRAINT "Fulfillment_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderItem" ADD CONSTRAINT "OrderItem_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderItem" ADD CONSTRAINT "OrderItem_fulfillmentId_fkey" FOREIGN KEY ("fulfillmentId") REFERENCES "Fulfillment"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderItem" ADD CONSTRAINT "OrderItem_skuId_fkey" FOREIGN KEY ("skuId") REFERENCES "Sku"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderItem" ADD CONSTRAINT "OrderItem_shopSkuId_fkey" FOREIGN KEY ("shopSkuId") REFERENCES "ShopSku"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderItem" ADD CONSTRAINT "OrderItem_prescriptionId_fkey" FOREIGN KEY ("prescriptionId") REFERENCES "Prescription"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderItem" ADD CONSTRAINT "OrderItem_anamnesisId_fkey" FOREIGN KEY ("anamnesisId") REFERENCES "QuestionnaireResponse"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Prescription" ADD CONSTRAINT "Prescription_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Prescription" ADD CONSTRAINT "Prescription_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Prescription" ADD CONSTRAINT "Prescription_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "PatientProfile"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Prescription" ADD CONSTRAINT "Prescription_doctorId_fkey" FOREIGN KEY ("doctorId") REFERENCES "Doctor"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PrescriptionLine" ADD CONSTRAINT "PrescriptionLine_prescriptionId_fkey" FOREIGN KEY ("prescriptionId") REFERENCES "Prescription"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PrescriptionLine" ADD CONSTRAINT "PrescriptionLine_orderItemId_fkey" FOREIGN KEY ("orderItemId") REFERENCES "OrderItem"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PrescriptionLine" ADD CONSTRAINT "PrescriptionLine_skuId_fkey" FOREIGN KEY ("skuId") REFERENCES "Sku"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PrescriptionLine" ADD CONSTRAINT "PrescriptionLine_anamnesisId_fkey" FOREIGN KEY ("anamnesisId") REFERENCES "QuestionnaireResponse"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PrescriptionHistory" ADD CONSTRAINT "PrescriptionHistory_prescriptionId_fkey" FOREIGN KEY ("prescriptionId") REFERENCES "Prescription"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PharmacyOrder" ADD CONSTRAINT "PharmacyOrder_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PharmacyOrder" ADD CONSTRAINT "PharmacyOrder_fulfillmentId_fkey" FOREIGN KEY ("fulfillmentId") REFERENCES "Fulfillment"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PharmacyOrder" ADD CONSTRAINT "PharmacyOrder_pharmacyId_fkey" FOREIGN KEY ("pharmacyId") REFERENCES "Pharmacy"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PharmacyOrder" ADD CONSTRAINT "PharmacyOrder_prescriptionId_fkey" FOREIGN KEY ("prescriptionId") REFERENCES "Prescription"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PharmacyOrderItem" ADD CONSTRAINT "PharmacyOrderItem_pharmacyOrderId_fkey" FOREIGN KEY ("pharmacyOrderId") REFERENCES "PharmacyOrder"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PharmacyOrderItem" ADD CONSTRAINT "PharmacyOrderItem_orderItemId_fkey" FOREIGN KEY ("orderItemId") REFERENCES "OrderItem"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PharmacyOrderItem" ADD CONSTRAINT "PharmacyOrderItem_pharmacySkuId_fkey" FOREIGN KEY ("pharmacySkuId") REFERENCES "PharmacySku"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PharmacyOrderHistory" ADD CONSTRAINT "PharmacyOrderHistory_pharmacyOrderId_fkey" FOREIGN KEY ("pharmacyOrderId") REFERENCES "PharmacyOrder"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AdminIssueThread" ADD CONSTRAINT "AdminIssueThread_pharmacyOrderId_fkey" FOREIGN KEY ("pharmacyOrderId") REFERENCES "PharmacyOrder"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AdminIssueMessage" ADD CONSTRAINT "AdminIssueMessage_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "AdminIssueThread"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Shipment" ADD CONSTRAINT "Shipment_pharmacyOrderId_fkey" FOREIGN KEY ("pharmacyOrderId") REFERENCES "PharmacyOrder"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Payout" ADD CONSTRAINT "Payout_pharmacyOrderId_fkey" FOREIGN KEY ("pharmacyOrderId") REFERENCES "PharmacyOrder"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Payout" ADD CONSTRAINT "Payout_receiverPharmacyId_fkey" FOREIGN KEY ("receiverPharmacyId") REFERENCES "Pharmacy"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookSubscription" ADD CONSTRAINT "WebhookSubscription_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookSubscription" ADD CONSTRAINT "WebhookSubscription_pharmacyId_fkey" FOREIGN KEY ("pharmacyId") REFERENCES "Pharmacy"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OutboxEvent" ADD CONSTRAINT "OutboxEvent_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_subscriptionId_fkey" FOREIGN KEY ("subscriptionId") REFERENCES "WebhookSubscription"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_outboxEventId_fkey" FOREIGN KEY ("outboxEventId") REFERENCES "OutboxEvent"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WaitingRoomEntry" ADD CONSTRAINT "WaitingRoomEntry_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WaitingRoomEntry" ADD CONSTRAINT "WaitingRoomEntry_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WaitingRoomEntry" ADD CONSTRAINT "WaitingRoomEntry_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "PatientProfile"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WaitingRoomEntry" ADD CONSTRAINT "WaitingRoomEntry_preferredDoctorId_fkey" FOREIGN KEY ("preferredDoctorId") REFERENCES "Doctor"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WalletPassTemplate" ADD CONSTRAINT "WalletPassTemplate_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WalletPassTemplate" ADD CONSTRAINT "WalletPassTemplate_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WalletPass" ADD CONSTRAINT "WalletPass_templateId_fkey" FOREIGN KEY ("templateId") REFERENCES "WalletPassTemplate"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WalletPass" ADD CONSTRAINT "WalletPass_shopCustomerId_fkey" FOREIGN KEY ("shopCustomerId") REFERENCES "ShopCustomer"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PushNotification" ADD CONSTRAINT "PushNotification_walletPassId_fkey" FOREIGN KEY ("walletPassId") REFERENCES "WalletPass"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TelemedicineProvider" ADD CONSTRAINT "TelemedicineProvider_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Hand-written: uniqueness among live (not soft-deleted) rows, which Prisma cannot express.
CREATE UNIQUE INDEX "ShopSku_live_shopId_skuId_key" ON "ShopSku" ("shopId", "skuId") WHERE "deletedAt" IS NULL AND "skuId" IS NOT NULL;
CREATE UNIQUE INDEX "ShopSku_live_shopId_shopVariationId_key" ON "ShopSku" ("shopId", "shopVariationId") WHERE "deletedAt" IS NULL AND "shopVariationId" IS NOT NULL;
CREATE UNIQUE INDEX "PharmacySku_live_pharmacyId_skuId_key" ON "PharmacySku" ("pharmacyId", "skuId") WHERE "deletedAt" IS NULL;
CREATE UNIQUE INDEX "WebhookSubscription_live_pharmacy_key" ON "WebhookSubscription" ("notificationType", "target", "pharmacyId") WHERE "deletedAt" IS NULL AND "pharmacyId" IS NOT NULL;
CREATE UNIQUE INDEX "WebhookSubscription_live_organisation_key" ON "WebhookSubscription" ("organisationId", "notificationType", "target") WHERE "deletedAt" IS NULL AND "pharmacyId" IS NULL;
CREATE UNIQUE INDEX "WalletPass_live_template_customer_key" ON "WalletPass" ("templateId", "shopCustomerId") WHERE "deletedAt" IS NULL;
CREATE UNIQUE INDEX "User_email_lower_key" ON "User" (lower("email"));
-- Case-insensitive substring search of pharmacy orders (`search`) on the lower-cased searchText.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "PharmacyOrder_searchText_trgm_idx" ON "PharmacyOrder" USING gin ("searchText" gin_trgm_ops);
-- Hand-written: the pharmacy order tally (see PharmacyOrderTally in schema.prisma).
CREATE FUNCTION "pharmacy_order_tally"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO "PharmacyOrderTally" ("pharmacyId", "status", "delta") VALUES (OLD."pharmacyId", OLD."status", -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "PharmacyOrderTally" ("pharmacyId", "status", "delta") VALUES (NEW."pharmacyId", NEW."status", 1);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER "PharmacyOrder_tally_insert_delete" AFTER INSERT OR DELETE ON "PharmacyOrder"
  FOR EACH ROW EXECUTE FUNCTION "pharmacy_order_tally"();
CREATE TRIGGER "PharmacyOrder_tally_update" AFTER UPDATE OF "status", "pharmacyId" ON "PharmacyOrder"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."pharmacyId" IS DISTINCT FROM NEW."pharmacyId")
  EXECUTE FUNCTION "pharmacy_order_tally"();
