-- AlterTable
ALTER TABLE "Doctor" ADD COLUMN     "newRequestsNotifiedAt" TIMESTAMPTZ(3),
ADD COLUMN     "notifyNewRequests" BOOLEAN NOT NULL DEFAULT false;

