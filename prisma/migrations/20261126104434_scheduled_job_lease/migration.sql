-- CreateTable
CREATE TABLE "ScheduledJobLease" (
    "jobId" TEXT NOT NULL,
    "periodStart" TIMESTAMPTZ(3) NOT NULL,
    "periodMs" INTEGER NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 1,
    "claimedBy" TEXT NOT NULL,
    "claimedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "ScheduledJobLease_pkey" PRIMARY KEY ("jobId")
);

