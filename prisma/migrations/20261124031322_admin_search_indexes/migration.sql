-- CreateIndex
CREATE INDEX "Order_organisationId_status_idx" ON "Order"("organisationId", "status");


-- Hand-written: case-insensitive substring search of orders (server/domain/orders/queries.ts
-- textMatches). pg_trgm's GIN indexes serve ILIKE '%…%' on each column.
CREATE INDEX "ShopOrder_name_trgm_idx" ON "ShopOrder" USING gin ("name" gin_trgm_ops);
CREATE INDEX "PharmacyOrder_name_trgm_idx" ON "PharmacyOrder" USING gin ("name" gin_trgm_ops);
CREATE INDEX "PatientProfile_displayName_trgm_idx" ON "PatientProfile" USING gin ("displayName" gin_trgm_ops);
CREATE INDEX "Order_customerEmail_trgm_idx" ON "Order" USING gin ("customerEmail" gin_trgm_ops);
