-- CreateEnum
CREATE TYPE "BackgroundTaskState" AS ENUM ('PENDING', 'DONE', 'FAILED');

-- CreateTable
CREATE TABLE "BackgroundTask" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "state" "BackgroundTaskState" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 5,
    "nextAttemptAt" TIMESTAMPTZ(3) DEFAULT CURRENT_TIMESTAMP,
    "lastError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "finishedAt" TIMESTAMPTZ(3),

    CONSTRAINT "BackgroundTask_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BackgroundTask_state_nextAttemptAt_idx" ON "BackgroundTask"("state", "nextAttemptAt");


-- Hand-written: wake the task runners when a task commits. NOTIFY inside a transaction is delivered
-- only at commit (once per transaction), so a runner never looks for a task before it is visible.
CREATE FUNCTION "background_task_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('rx_tasks', '');
  RETURN NULL;
END
$$;
CREATE TRIGGER "BackgroundTask_notify" AFTER INSERT ON "BackgroundTask"
  FOR EACH STATEMENT EXECUTE FUNCTION "background_task_notify"();
