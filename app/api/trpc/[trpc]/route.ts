import { handleTrpcRequest } from "@/server/trpc/handler";

/** The portals' tRPC endpoint (server/trpc): queries by GET, mutations by POST, behind the portal session. */
export const dynamic = "force-dynamic";

const handler = (request: Request) => handleTrpcRequest(request);

export { handler as GET, handler as POST };
