-- AlterTable
ALTER TABLE "Doctor" ADD COLUMN     "canSeeAllPrescriptions" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "deactivatedAt" TIMESTAMPTZ(3),
ADD COLUMN     "minutesToRespond" INTEGER;

-- CreateTable
CREATE TABLE "DoctorQuestionnaire" (
    "doctorId" TEXT NOT NULL,
    "questionnaireId" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DoctorQuestionnaire_pkey" PRIMARY KEY ("doctorId","questionnaireId")
);

-- CreateIndex
CREATE INDEX "DoctorQuestionnaire_questionnaireId_idx" ON "DoctorQuestionnaire"("questionnaireId");

-- AddForeignKey
ALTER TABLE "DoctorQuestionnaire" ADD CONSTRAINT "DoctorQuestionnaire_doctorId_fkey" FOREIGN KEY ("doctorId") REFERENCES "Doctor"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DoctorQuestionnaire" ADD CONSTRAINT "DoctorQuestionnaire_questionnaireId_fkey" FOREIGN KEY ("questionnaireId") REFERENCES "Questionnaire"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

