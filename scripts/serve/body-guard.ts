import type http from "node:http";
import { bodyLimitFor, readsOwnBody } from "@/server/http/body-limits";
import { apiSecurityHeaders } from "@/server/http/security-headers";

/**
 * The production entry's bound on bodies Next.js would read (docs/security.md#input-limits-and-malformed-input):
 * next-auth, the PassKit web service, Inngest, pages and server actions. Answered here, before
 * Next.js sees the request, because Next.js reads a body whole before the route runs on every
 * path proxy.ts matches (to clone it for the proxy), whatever the route would have refused.
 *  - A Content-Length over the path's cap (server/http/body-limits.ts): 413.
 *  - No Content-Length but a body (Transfer-Encoding: chunked): 411. Browsers, Apple's devices and
 *    Inngest always send a length; a chunked body could only be bounded by reading it.
 * Both with Connection: close: Node then closes the connection after the answer instead of
 * reading the rest of the body. The REST families and tRPC bound their bodies themselves.
 * Returns true when it answered.
 */
export function refuseUnboundedBody(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const pathname = (req.url ?? "/").split("?")[0];
  if (readsOwnBody(pathname)) return false;
  const cap = bodyLimitFor(pathname);
  const declared = req.headers["content-length"];
  if (declared !== undefined) {
    if (Number(declared) <= cap) return false;
    answer(res, 413, `Request body too large: the limit is ${cap / 1024} KiB.`);
    return true;
  }
  if (req.headers["transfer-encoding"] === undefined) return false;
  answer(res, 411, "Length Required: send the body with a Content-Length.");
  return true;
}

function answer(res: http.ServerResponse, status: number, message: string): void {
  const body = `${message}\n`;
  res.writeHead(status, { ...apiSecurityHeaders(), "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(body), connection: "close" });
  res.end(body);
}
