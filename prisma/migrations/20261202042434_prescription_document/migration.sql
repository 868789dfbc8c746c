-- AlterTable
ALTER TABLE "Organisation" ADD COLUMN     "prescriptionLanguage" TEXT NOT NULL DEFAULT 'de';

-- AlterTable
ALTER TABLE "Doctor" ADD COLUMN     "identificationType" TEXT,
ADD COLUMN     "identificationValue" TEXT,
ADD COLUMN     "phone" TEXT,
ADD COLUMN     "practiceCity" TEXT,
ADD COLUMN     "practiceCountry" TEXT,
ADD COLUMN     "practiceName" TEXT,
ADD COLUMN     "practicePostalCode" TEXT,
ADD COLUMN     "practiceStreet" TEXT,
ADD COLUMN     "prescriptionEmail" TEXT,
ADD COLUMN     "professionalTitle" TEXT;

