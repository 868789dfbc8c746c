-- AlterTable
ALTER TABLE "DraftOrder" ADD COLUMN     "shopifyDraftOrderGid" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "DraftOrder_shopifyDraftOrderGid_key" ON "DraftOrder"("shopifyDraftOrderGid");

