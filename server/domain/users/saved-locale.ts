/**
 * A portal user's language (User.locale): the one they chose with the language switch, remembered
 * across sessions and devices (docs/decisions/portals.md#languages). Null until they choose.
 */
import { databaseDriver } from "@/server/db/client";
import { isUserLocale, type UserLocale } from "./locales";

/**
 * The saved language of the user of a live session (same session version, not deactivated), or null.
 * A driver statement: every page render asks.
 */
export async function savedUserLocale(userId: string, sessionVersion: number): Promise<UserLocale | null> {
  const driver = await databaseDriver();
  const [row] = await driver.query<{ locale: string | null }>(
    `SELECT "locale" FROM "User" WHERE "id" = $1 AND "deactivatedAt" IS NULL AND "sessionVersion" = $2`,
    [userId, sessionVersion],
  );
  return isUserLocale(row?.locale) ? row.locale : null;
}

/** Remembers the language of the user of a live session; a session that has ended changes nothing. */
export async function saveUserLocale(userId: string, sessionVersion: number, locale: UserLocale): Promise<void> {
  const driver = await databaseDriver();
  await driver.query(`UPDATE "User" SET "locale" = $1 WHERE "id" = $2 AND "deactivatedAt" IS NULL AND "sessionVersion" = $3`, [
    locale,
    userId,
    sessionVersion,
  ]);
}
