-- AlterTable
ALTER TABLE "AuditEvent" ADD COLUMN     "summaryValues" JSONB;

