-- AlterEnum
ALTER TYPE "StockMovementReason" ADD VALUE 'ORDER_CANCELLATION';

-- AlterTable
ALTER TABLE "Payout" ADD COLUMN     "reviewFlaggedAt" TIMESTAMPTZ(3),
ADD COLUMN     "reviewReason" TEXT;

