-- AlterTable
ALTER TABLE "AdminIssueThread" ADD COLUMN     "openedBySide" "IssueMessageSide" NOT NULL DEFAULT 'PHARMACY';

