import { z } from "zod";
import {
  latestPass,
  passesUpdatedForDevice,
  registerPassDevice,
  unregisterPassDevice,
} from "@/server/domain/wallet-passes/passkit-service";
import { log } from "@/server/log";
import { withinAddressRateLimit } from "@/server/rest/rate-limit";
import { notFoundPage, tooManyRequestsPage } from "@/server/rest/responses";
import { pkpassResponse } from "./pass-download";

/**
 * The PassKit web service under the pass's webServiceURL (/wallet/passkit), as Apple's protocol
 * defines it:
 *   POST   v1/devices/{device}/registrations/{passType}/{serial}   register (201 new, 200 again, 401)
 *   DELETE v1/devices/{device}/registrations/{passType}/{serial}   unregister (200, 401)
 *   GET    v1/devices/{device}/registrations/{passType}?passesUpdatedSince=tag   (200 {serialNumbers, lastUpdated}, 204 none)
 *   GET    v1/passes/{passType}/{serial}                           the latest .pkpass (200, 304, 401)
 *   POST   v1/log                                                  device logs (200)
 * Requests that name a pass carry `Authorization: ApplePass <authenticationToken>`.
 */

const empty = (status: number) => new Response(null, { status });
const registrationBody = z.object({ pushToken: z.string().regex(/^[0-9A-Za-z]{1,200}$/) });
const logBody = z.object({ logs: z.array(z.string()).max(100) });

function applePassToken(request: Request): string | null {
  const match = /^ApplePass\s+(\S+)\s*$/.exec(request.headers.get("authorization") ?? "");
  return match ? match[1] : null;
}

async function jsonBody(request: Request): Promise<unknown> {
  try {
    return JSON.parse(await request.text());
  } catch {
    return undefined;
  }
}

export async function handlePasskitRequest(request: Request, segments: string[]): Promise<Response> {
  if (!(await withinAddressRateLimit(request))) return tooManyRequestsPage();
  const method = request.method.toUpperCase();
  const url = new URL(request.url);
  const [version, resource, ...rest] = segments;
  try {
    if (version !== "v1") return notFoundPage(url.pathname);

    if (resource === "devices" && rest[1] === "registrations") {
      const [deviceLibraryIdentifier, , passTypeIdentifier, serialNumber] = rest;
      if (rest.length === 4 && (method === "POST" || method === "DELETE")) {
        const pass = { deviceLibraryIdentifier, passTypeIdentifier, serialNumber, token: applePassToken(request) };
        if (method === "DELETE") return empty((await unregisterPassDevice(pass)) ? 200 : 401);
        const body = registrationBody.safeParse(await jsonBody(request));
        if (!body.success) return empty(400);
        const outcome = await registerPassDevice({ ...pass, pushToken: body.data.pushToken });
        return empty(outcome === "created" ? 201 : outcome === "updated" ? 200 : 401);
      }
      if (rest.length === 3 && method === "GET") {
        const updated = await passesUpdatedForDevice({
          deviceLibraryIdentifier,
          passTypeIdentifier,
          passesUpdatedSince: url.searchParams.get("passesUpdatedSince"),
        });
        return updated ? Response.json(updated) : empty(204);
      }
    }

    if (resource === "passes" && rest.length === 2 && method === "GET") {
      const [passTypeIdentifier, serialNumber] = rest;
      const latest = await latestPass({ passTypeIdentifier, serialNumber, token: applePassToken(request) });
      if (!latest) return empty(401);
      const since = Date.parse(request.headers.get("if-modified-since") ?? "");
      if (!Number.isNaN(since) && Math.floor(latest.updatedAt.getTime() / 1000) * 1000 <= since) return empty(304);
      return pkpassResponse(latest.pkpass, latest.updatedAt);
    }

    if (resource === "log" && rest.length === 0 && method === "POST") {
      const body = logBody.safeParse(await jsonBody(request));
      if (!body.success) return empty(400);
      for (const entry of body.data.logs) log.info("wallet device log", { entry: entry.slice(0, 1000) });
      return empty(200);
    }
    return notFoundPage(url.pathname);
  } catch (error) {
    log.error("PassKit web service request failed", { method, path: url.pathname, error });
    return empty(500);
  }
}
