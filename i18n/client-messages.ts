import type { AbstractIntlMessages } from "next-intl";
import { getMessages } from "next-intl/server";

/**
 * Which namespaces of the catalogue a page's HTML carries for its client components (issue 37: every
 * page embedded the whole catalogue, about 100 KB, the sign-in page too). Server components read the
 * whole catalogue on the server (getTranslations), so what only they word never goes to the browser.
 */
const SERVER_ONLY = ["landing", "mail"];
/** Words of the portals' own pages, sent only inside their portal's layout. */
const PORTALS_ONLY = ["admin", "adminDoors", "doctor", "pharmacy", "webhooks", "apiKeys", "payouts", "appointments"];

export type ClientMessagesScope = "public" | "admin" | "doctor" | "pharmacy";

const OMITTED: Record<ClientMessagesScope, readonly string[]> = {
  public: [...SERVER_ONLY, ...PORTALS_ONLY],
  // The admin tool shows the pharmacy's stock components and every shared portal component.
  admin: SERVER_ONLY,
  doctor: [...SERVER_ONLY, "pharmacy", "adminDoors"],
  pharmacy: [...SERVER_ONLY, "admin", "adminDoors", "doctor"],
};

/** The request's catalogue without what `scope`'s client components never word. */
export async function clientMessages(scope: ClientMessagesScope): Promise<AbstractIntlMessages> {
  const omitted = OMITTED[scope];
  return Object.fromEntries(Object.entries(await getMessages()).filter(([namespace]) => !omitted.includes(namespace))) as AbstractIntlMessages;
}
