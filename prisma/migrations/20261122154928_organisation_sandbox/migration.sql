-- AlterTable
ALTER TABLE "Organisation" ADD COLUMN     "sandbox" BOOLEAN NOT NULL DEFAULT false;

