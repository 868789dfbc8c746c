-- CreateIndex
CREATE INDEX "Prescription_organisationId_signedFileSha256_idx" ON "Prescription"("organisationId", "signedFileSha256");

