import { handleTrpcRequest } from "@/server/trpc/handler";
import { unservedMethods } from "@/server/http/security-headers";

/** The portals' tRPC endpoint (server/trpc): queries by GET, mutations by POST, behind the portal session. */
export const dynamic = "force-dynamic";

const handler = (request: Request) => handleTrpcRequest(request);

export { handler as GET, handler as POST };

// The other methods: as Next.js answers them, with the API security headers.
const unserved = unservedMethods(["GET", "POST"]);
export const PUT = unserved.PUT;
export const PATCH = unserved.PATCH;
export const DELETE = unserved.DELETE;
export const OPTIONS = unserved.OPTIONS;
