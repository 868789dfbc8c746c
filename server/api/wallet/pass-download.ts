import { downloadPkpass, PKPASS_CONTENT_TYPE } from "@/server/domain/wallet-passes/pkpass";
import { log } from "@/server/log";
import { withinAddressRateLimit } from "@/server/rest/rate-limit";
import { notFoundPage, tooManyRequestsPage } from "@/server/rest/responses";

/**
 * GET /wallet/passes/{uid}/{token}.pkpass: the pass's ios_download_url and android_download_url.
 * The patient opens it without an API key; the token (an HMAC of the uid) makes the URL unguessable.
 * A wrong token, an unknown or a deleted pass are the HTML 404 of an unknown path. Each download
 * signs the package anew (~30 ms of CPU), so the per-address rate limit of the APIs applies.
 */
export async function servePassDownload(request: Request, uid: string, file: string): Promise<Response> {
  if (!(await withinAddressRateLimit(request))) return tooManyRequestsPage();
  const pathname = new URL(request.url).pathname;
  const token = file.endsWith(".pkpass") ? file.slice(0, -".pkpass".length) : null;
  if (!token) return notFoundPage(pathname);
  try {
    const found = await downloadPkpass(uid, token);
    if (!found) return notFoundPage(pathname);
    return pkpassResponse(found.pkpass, found.pass.updatedAt);
  } catch (error) {
    log.error("wallet pass download failed", { passId: uid, error });
    return new Response("Internal server error", { status: 500, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
}

/** A .pkpass answer (downloads and the PassKit web service's latest version). */
export function pkpassResponse(pkpass: Buffer, updatedAt: Date): Response {
  return new Response(new Uint8Array(pkpass), {
    status: 200,
    headers: {
      "content-type": PKPASS_CONTENT_TYPE,
      "content-disposition": 'attachment; filename="pass.pkpass"',
      "last-modified": updatedAt.toUTCString(),
      "cache-control": "no-store",
    },
  });
}
