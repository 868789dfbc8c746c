import { portalUserOfRequest, type PortalSessionUser } from "@/server/auth/portal-session";
import type { TrpcContext } from "./init";

export type PortalUserResolver = (request: Request) => Promise<PortalSessionUser | null>;

/**
 * The context of one tRPC request: the signed-in portal user (next-auth session cookie), or null.
 * Procedures re-check the user against the database.
 */
export async function createContext(request: Request, resolveUser: PortalUserResolver = portalUserOfRequest): Promise<TrpcContext> {
  return { user: await resolveUser(request) };
}
