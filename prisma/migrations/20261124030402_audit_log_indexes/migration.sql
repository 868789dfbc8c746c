-- CreateIndex
CREATE INDEX "PrescriptionHistory_createdAt_id_idx" ON "PrescriptionHistory"("createdAt", "id");

-- CreateIndex
CREATE INDEX "PharmacyOrderHistory_createdAt_id_idx" ON "PharmacyOrderHistory"("createdAt", "id");

