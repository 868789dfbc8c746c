-- AlterTable
ALTER TABLE "PharmacyOrder" ADD COLUMN     "unreadAnswerAt" TIMESTAMPTZ(3);


-- Hand-written: the pharmacy home's count of orders with an unread answer reads only those rows.
CREATE INDEX "PharmacyOrder_unreadAnswer_idx" ON "PharmacyOrder" ("pharmacyId") WHERE "unreadAnswerAt" IS NOT NULL;
