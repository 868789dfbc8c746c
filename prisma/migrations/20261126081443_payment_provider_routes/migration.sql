-- CreateEnum
CREATE TYPE "PayoutProviderRouting" AS ENUM ('PENDING', 'ROUTED', 'FAILED', 'SKIPPED');

-- AlterTable
ALTER TABLE "Pharmacy" ADD COLUMN     "mollieOrganizationId" TEXT;

-- AlterTable
ALTER TABLE "Payout" ADD COLUMN     "providerAttempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "providerError" TEXT,
ADD COLUMN     "providerLeaseUntil" TIMESTAMPTZ(3),
ADD COLUMN     "providerRouting" "PayoutProviderRouting";

-- CreateTable
CREATE TABLE "PaymentProviderConnection" (
    "organisationId" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "apiEndpoint" TEXT NOT NULL,
    "sealedApiKey" TEXT NOT NULL,
    "apiKeyHint" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PaymentProviderConnection_pkey" PRIMARY KEY ("organisationId")
);

-- AddForeignKey
ALTER TABLE "PaymentProviderConnection" ADD CONSTRAINT "PaymentProviderConnection_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

