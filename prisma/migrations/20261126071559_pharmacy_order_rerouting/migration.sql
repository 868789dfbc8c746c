-- CreateEnum
CREATE TYPE "PharmacyOrderRouting" AS ENUM ('AUTOMATIC', 'INTEGRATOR', 'ADMIN');

-- DropIndex
DROP INDEX "PharmacyOrder_fulfillmentId_key";

-- AlterTable
ALTER TABLE "PharmacyOrder" ADD COLUMN     "activeFulfillmentId" TEXT,
ADD COLUMN     "routing" "PharmacyOrderRouting" NOT NULL DEFAULT 'INTEGRATOR';

-- CreateIndex
CREATE UNIQUE INDEX "PharmacyOrder_activeFulfillmentId_key" ON "PharmacyOrder"("activeFulfillmentId");

-- CreateIndex
CREATE INDEX "PharmacyOrder_fulfillmentId_idx" ON "PharmacyOrder"("fulfillmentId");

-- AddForeignKey
ALTER TABLE "PharmacyOrder" ADD CONSTRAINT "PharmacyOrder_activeFulfillmentId_fkey" FOREIGN KEY ("activeFulfillmentId") REFERENCES "Fulfillment"("id") ON DELETE SET NULL ON UPDATE CASCADE;


-- Hand-written (docs/decisions/intake.md#re-routing).
-- Until now each fulfillment had one pharmacy order: it is the active one.
UPDATE "PharmacyOrder" SET "activeFulfillmentId" = "fulfillmentId";

-- Routed automatically: the fulfillment named no destination_pharmacy_uid or location_id and its order no pharmacy_uid (intake's rule).
UPDATE "PharmacyOrder" po SET "routing" = 'AUTOMATIC'
  FROM "Fulfillment" f JOIN "Order" o ON o."id" = f."orderId"
 WHERE f."id" = po."fulfillmentId" AND f."destinationPharmacyId" IS NULL AND f."locationId" IS NULL AND o."pharmacyId" IS NULL;

-- A pharmacy order can only be the active one of its own fulfillment.
ALTER TABLE "PharmacyOrder" ADD CONSTRAINT "PharmacyOrder_active_of_own_fulfillment"
  CHECK ("activeFulfillmentId" IS NULL OR "activeFulfillmentId" = "fulfillmentId");
