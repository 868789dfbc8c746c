-- AlterTable
ALTER TABLE "PharmacyOrder" DROP COLUMN "searchText";


-- Hand-written (issue 23 rule 7): the External Pharmacy API's `search` reads the fields the order
-- shows now (server/domain/pharmacy-orders/queries.ts searchMatchesSql), not a copy frozen at
-- creation (the column dropped above, and its trigram index with it). The names' trigram indexes
-- exist (admin_search_indexes); these serve a substring of the two uids.
CREATE INDEX "PharmacyOrder_id_trgm_idx" ON "PharmacyOrder" USING gin ("id" gin_trgm_ops);
CREATE INDEX "PharmacyOrder_orderId_trgm_idx" ON "PharmacyOrder" USING gin ("orderId" gin_trgm_ops);
