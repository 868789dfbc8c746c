import { handlePasskitRequest } from "@/server/api/wallet/passkit";
import { unservedMethods, withApiHeaders } from "@/server/http/security-headers";

// Apple's PassKit web service under the passes' webServiceURL (register devices, fetch updated passes).
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ path: string[] }> };
const handler = withApiHeaders(async (request: Request, context: Context) => handlePasskitRequest(request, (await context.params).path));

export { handler as GET, handler as POST, handler as DELETE };

// The other methods: as Next.js answers them, with the API security headers.
const unserved = unservedMethods(["GET", "POST", "DELETE"]);
export const PUT = unserved.PUT;
export const PATCH = unserved.PATCH;
export const OPTIONS = unserved.OPTIONS;
