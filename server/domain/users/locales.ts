/** The languages the portals speak (User.locale), the first the default (its labels are the e2e contracts'). Imports nothing: client components read it too. */
export const USER_LOCALES = ["en", "de"] as const;
export type UserLocale = (typeof USER_LOCALES)[number];

export const isUserLocale = (value: unknown): value is UserLocale => (USER_LOCALES as readonly unknown[]).includes(value);
