-- CreateTable
CREATE TABLE "TrustServiceConnection" (
    "organisationId" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "tokenUrl" TEXT,
    "clientId" TEXT NOT NULL,
    "sealedClientSecret" TEXT NOT NULL,
    "clientSecretHint" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "TrustServiceConnection_pkey" PRIMARY KEY ("organisationId")
);

-- CreateTable
CREATE TABLE "DoctorSigningCredential" (
    "doctorId" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "sealedCredentialId" TEXT NOT NULL,
    "certificateChainPem" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "subjectName" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "issuerName" TEXT NOT NULL,
    "serialNumber" TEXT NOT NULL,
    "validFrom" TIMESTAMPTZ(3) NOT NULL,
    "validTo" TIMESTAMPTZ(3) NOT NULL,
    "signAlgorithm" TEXT NOT NULL,
    "authFactors" TEXT[],
    "multisign" INTEGER NOT NULL DEFAULT 1,
    "linkedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DoctorSigningCredential_pkey" PRIMARY KEY ("doctorId")
);

-- CreateIndex
CREATE INDEX "DoctorSigningCredential_organisationId_idx" ON "DoctorSigningCredential"("organisationId");

-- AddForeignKey
ALTER TABLE "TrustServiceConnection" ADD CONSTRAINT "TrustServiceConnection_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DoctorSigningCredential" ADD CONSTRAINT "DoctorSigningCredential_doctorId_fkey" FOREIGN KEY ("doctorId") REFERENCES "Doctor"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DoctorSigningCredential" ADD CONSTRAINT "DoctorSigningCredential_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

