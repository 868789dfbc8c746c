-- CreateEnum
CREATE TYPE "MeetingKind" AS ENUM ('ON_DEMAND', 'SCHEDULED');

-- AlterTable
ALTER TABLE "Questionnaire" ADD COLUMN     "draftSavedAt" TIMESTAMPTZ(3),
ADD COLUMN     "publishedAt" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "WaitingRoomEntry" ADD COLUMN     "doctorId" TEXT;

-- AlterTable
ALTER TABLE "WalletPass" ADD COLUMN     "barcodeSealed" TEXT NOT NULL,
ADD COLUMN     "lastMessage" TEXT;

-- AlterTable
ALTER TABLE "PushNotification" ADD COLUMN     "lastError" TEXT,
ADD COLUMN     "renderedMessage" TEXT,
ADD COLUMN     "sentAt" TIMESTAMPTZ(3),
ADD COLUMN     "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateTable
CREATE TABLE "Meeting" (
    "id" TEXT NOT NULL,
    "organisationId" TEXT NOT NULL,
    "kind" "MeetingKind" NOT NULL,
    "status" TEXT,
    "doctorId" TEXT NOT NULL,
    "patientId" TEXT NOT NULL,
    "waitingRoomEntryId" TEXT,
    "rebookedFromId" TEXT,
    "videoRoomId" TEXT,
    "startsAt" TIMESTAMPTZ(3) NOT NULL,
    "endsAt" TIMESTAMPTZ(3),
    "cancelReason" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Meeting_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AppointmentReminder" (
    "id" TEXT NOT NULL,
    "meetingId" TEXT NOT NULL,
    "recipientRole" TEXT NOT NULL,
    "dueAt" TIMESTAMPTZ(3) NOT NULL,
    "sentAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AppointmentReminder_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WalletPassDevice" (
    "id" TEXT NOT NULL,
    "walletPassId" TEXT NOT NULL,
    "deviceLibraryIdentifier" TEXT NOT NULL,
    "pushToken" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WalletPassDevice_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Meeting_waitingRoomEntryId_key" ON "Meeting"("waitingRoomEntryId");

-- CreateIndex
CREATE UNIQUE INDEX "Meeting_rebookedFromId_key" ON "Meeting"("rebookedFromId");

-- CreateIndex
CREATE INDEX "Meeting_organisationId_startsAt_idx" ON "Meeting"("organisationId", "startsAt");

-- CreateIndex
CREATE INDEX "Meeting_doctorId_startsAt_idx" ON "Meeting"("doctorId", "startsAt");

-- CreateIndex
CREATE UNIQUE INDEX "AppointmentReminder_meetingId_recipientRole_dueAt_key" ON "AppointmentReminder"("meetingId", "recipientRole", "dueAt");

-- CreateIndex
CREATE INDEX "WalletPassDevice_walletPassId_idx" ON "WalletPassDevice"("walletPassId");

-- CreateIndex
CREATE UNIQUE INDEX "WalletPassDevice_deviceLibraryIdentifier_walletPassId_key" ON "WalletPassDevice"("deviceLibraryIdentifier", "walletPassId");

-- CreateIndex
CREATE INDEX "WaitingRoomEntry_doctorId_completedAt_idx" ON "WaitingRoomEntry"("doctorId", "completedAt");

-- AddForeignKey
ALTER TABLE "WaitingRoomEntry" ADD CONSTRAINT "WaitingRoomEntry_doctorId_fkey" FOREIGN KEY ("doctorId") REFERENCES "Doctor"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Meeting" ADD CONSTRAINT "Meeting_organisationId_fkey" FOREIGN KEY ("organisationId") REFERENCES "Organisation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Meeting" ADD CONSTRAINT "Meeting_doctorId_fkey" FOREIGN KEY ("doctorId") REFERENCES "Doctor"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Meeting" ADD CONSTRAINT "Meeting_patientId_fkey" FOREIGN KEY ("patientId") REFERENCES "PatientProfile"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Meeting" ADD CONSTRAINT "Meeting_waitingRoomEntryId_fkey" FOREIGN KEY ("waitingRoomEntryId") REFERENCES "WaitingRoomEntry"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Meeting" ADD CONSTRAINT "Meeting_rebookedFromId_fkey" FOREIGN KEY ("rebookedFromId") REFERENCES "Meeting"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AppointmentReminder" ADD CONSTRAINT "AppointmentReminder_meetingId_fkey" FOREIGN KEY ("meetingId") REFERENCES "Meeting"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WalletPassDevice" ADD CONSTRAINT "WalletPassDevice_walletPassId_fkey" FOREIGN KEY ("walletPassId") REFERENCES "WalletPass"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Hand-written: a doctor holds at most one allocated waiting-room entry (two concurrent "take next
-- patient" calls of one doctor cannot both win); the patient e-mail search is case-insensitive.
CREATE UNIQUE INDEX "WaitingRoomEntry_one_allocated_per_doctor_key" ON "WaitingRoomEntry" ("doctorId") WHERE "status" = 'allocated';
CREATE INDEX "WaitingRoomEntry_waiting_idx" ON "WaitingRoomEntry" ("organisationId", "createdAt") WHERE "status" = 'waiting';
CREATE INDEX "ShopCustomer_lower_email_idx" ON "ShopCustomer" (lower("email"));
CREATE INDEX "PatientProfile_lower_email_idx" ON "PatientProfile" ("organisationId", lower("email"));
CREATE INDEX "Order_lower_customerEmail_idx" ON "Order" ("organisationId", lower("customerEmail"));
CREATE INDEX "AppointmentReminder_due_idx" ON "AppointmentReminder" ("dueAt") WHERE "sentAt" IS NULL;
