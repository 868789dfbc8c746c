import type { AbstractIntlMessages } from "next-intl";
import { getMessages } from "next-intl/server";

/**
 * Which namespaces of the catalogue a page's HTML carries for its client components (issue 37: every
 * page embedded the whole catalogue, about 130 KB, the sign-in page too). Server components read the
 * whole catalogue on the server (getTranslations), so what only they word never goes to the browser.
 * Every page gets the shared words (the root layout); a portal's layout adds its own namespaces
 * (components/i18n/portal-messages.tsx). A namespace missing here shows as a MISSING_MESSAGE in the
 * browser's console, which e2e/every-page.spec.ts fails on.
 */
const SERVER_ONLY = ["landing", "mail"];

export type PortalScope = "admin" | "doctor" | "pharmacy";

/** Each portal's own namespaces (the admin tool shows the pharmacy's stock components too). */
const PORTAL_NAMESPACES: Record<PortalScope, readonly string[]> = {
  admin: ["admin", "adminDoors", "pharmacy", "webhooks", "apiKeys", "payouts", "appointments"],
  doctor: ["doctor", "appointments"],
  pharmacy: ["pharmacy", "webhooks", "apiKeys", "payouts"],
};
const PORTALS_ONLY = [...new Set(Object.values(PORTAL_NAMESPACES).flat())];

const pick = (messages: AbstractIntlMessages, keep: (namespace: string) => boolean) =>
  Object.fromEntries(Object.entries(messages).filter(([namespace]) => keep(namespace))) as AbstractIntlMessages;

/** The words every page's client components may use: the catalogue without the portals' and the server's own. */
export async function sharedClientMessages(): Promise<AbstractIntlMessages> {
  return pick(await getMessages(), (namespace) => !SERVER_ONLY.includes(namespace) && !PORTALS_ONLY.includes(namespace));
}

/** A portal's own namespaces, added to the shared ones by its layout. */
export async function portalClientMessages(scope: PortalScope): Promise<AbstractIntlMessages> {
  return pick(await getMessages(), (namespace) => PORTAL_NAMESPACES[scope].includes(namespace));
}
