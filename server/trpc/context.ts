import { TRPCError } from "@trpc/server";
import { portalUserOfRequest, type PortalSessionUser } from "@/server/auth/portal-session";
import { config } from "@/server/config";
import { clientAddress, withinRateLimit } from "@/server/rest/rate-limit";
import type { TrpcContext } from "./init";

export type PortalUserResolver = (request: Request) => Promise<PortalSessionUser | null>;

/**
 * The context of one tRPC request (one HTTP request, however many calls it batches): the signed-in
 * portal user (next-auth session cookie), or null. Procedures re-check the user against the
 * database. The request is counted first, per user and per client address, by the REST rate
 * limit's counters (TRPC_RATE_LIMIT_PER_SECOND); over either limit, every call of the request
 * fails with TOO_MANY_REQUESTS (HTTP 429) in tRPC's envelope.
 */
export async function createContext(request: Request, resolveUser: PortalUserResolver = portalUserOfRequest): Promise<TrpcContext> {
  const user = await resolveUser(request);
  const subjects = [`trpc-addr:${clientAddress(request)}`, ...(user ? [`trpc-user:${user.id}`] : [])];
  if (!(await withinRateLimit(subjects, config().TRPC_RATE_LIMIT_PER_SECOND))) {
    throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: "Too many requests: try again in a moment." });
  }
  return { user };
}
