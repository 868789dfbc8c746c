-- AlterTable
ALTER TABLE "Prescription" ADD COLUMN     "signingClaimId" TEXT,
ADD COLUMN     "signingClaimedUntil" TIMESTAMPTZ(3);

