-- AlterTable
ALTER TABLE "PharmacyOrder" ADD COLUMN     "completedAt" TIMESTAMPTZ(3);

