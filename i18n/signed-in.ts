import { headers } from "next/headers";
import { config } from "@/server/config";
import { portalUserOfRequest, type PortalSessionUser } from "@/server/auth/portal-session";

/**
 * The session of the current render or server action, read from its cookie only (cached decode, no
 * session renewal: portal-session.ts). Whether the session is still live is the caller's query's
 * business (the user's session version).
 */
export async function sessionOfCurrentRequest(): Promise<PortalSessionUser | null> {
  return portalUserOfRequest(new Request(config().baseUrl, { headers: await headers() }));
}
