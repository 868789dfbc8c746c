import { currentPortalUser, type PortalSessionUser } from "@/server/auth/portal-session";
import type { TrpcContext } from "./init";

export type PortalUserResolver = () => Promise<PortalSessionUser | null>;

/**
 * The context of one tRPC request: the signed-in portal user (next-auth session cookie, read
 * through next/headers), or null. Procedures re-check the user against the database.
 */
export async function createContext(resolveUser: PortalUserResolver = currentPortalUser): Promise<TrpcContext> {
  return { user: await resolveUser() };
}
