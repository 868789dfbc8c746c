import { servePassDownload } from "@/server/api/wallet/pass-download";
import { unservedMethods, withApiHeaders } from "@/server/http/security-headers";

// A wallet pass's .pkpass download (its ios_download_url and android_download_url).
export const dynamic = "force-dynamic";

export const GET = withApiHeaders(async (request: Request, context: { params: Promise<{ uid: string; file: string }> }) => {
  const { uid, file } = await context.params;
  return servePassDownload(request, uid, file);
});

// The other methods: as Next.js answers them, with the API security headers.
const unserved = unservedMethods(["GET"]);
export const POST = unserved.POST;
export const PUT = unserved.PUT;
export const PATCH = unserved.PATCH;
export const DELETE = unserved.DELETE;
export const OPTIONS = unserved.OPTIONS;
