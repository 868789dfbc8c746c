-- AlterTable
ALTER TABLE "User" ADD COLUMN     "locale" TEXT;


-- The languages the portals speak (server/domain/users/locales.ts).
ALTER TABLE "User" ADD CONSTRAINT "User_locale_check" CHECK ("locale" IN ('de', 'en'));
