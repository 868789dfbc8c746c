import { z } from "zod";
import {
  latestPass,
  passesUpdatedForDevice,
  registerPassDevice,
  unregisterPassDevice,
} from "@/server/domain/wallet-passes/passkit-service";
import { PASSKIT_BODY_MAX_BYTES } from "@/server/http/body-limits";
import { log, loggableRequest } from "@/server/log";
import { BodyAbortedError, BodyTooLargeError, bodyTooLargeResponse, readBodyText } from "@/server/rest/body";
import { withinAddressRateLimit } from "@/server/rest/rate-limit";
import { notFoundPage, tooManyRequestsPage } from "@/server/rest/responses";
import { inputTextErrors } from "@/server/wire/json-input";
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

/**
 * The identifiers in the path, bounded before anything reads the database with them (a NUL or a
 * 5,000-character identifier failed in the database with a 500). Apple's reference types them as
 * strings: devices send a device library identifier of 32 hexadecimal digits, a pass type
 * identifier is the reverse-DNS "pass.…" name of the pass type ID, and the serial number is ours
 * (a pass uid). Letters, digits, '.', '_' and '-' within these lengths keep every real value.
 */
const PATH_IDENTIFIERS = {
  deviceLibraryIdentifier: /^[A-Za-z0-9._-]{1,128}$/,
  passTypeIdentifier: /^pass\.[A-Za-z0-9._-]{1,250}$/,
  serialNumber: /^[A-Za-z0-9._-]{1,128}$/,
};

/** The first identifier of the path that is not one Apple's devices could send, as a 400 naming it; null when all are. */
function invalidIdentifier(values: Partial<Record<keyof typeof PATH_IDENTIFIERS, string>>): Response | null {
  for (const [name, value] of Object.entries(values)) {
    if (!PATH_IDENTIFIERS[name as keyof typeof PATH_IDENTIFIERS].test(value ?? "")) {
      return new Response(`Invalid ${name}.\n`, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
    }
  }
  return null;
}

function applePassToken(request: Request): string | null {
  const match = /^ApplePass\s+(\S+)\s*$/.exec(request.headers.get("authorization") ?? "");
  return match ? match[1] : null;
}

class BodyRefused extends Error {
  constructor(readonly response: Response) {
    super("body refused");
  }
}

/** The JSON body read under PASSKIT_BODY_MAX_BYTES (BodyRefused: 413 over it); undefined when it is not JSON. */
async function jsonBody(request: Request): Promise<unknown> {
  let text: string;
  try {
    text = await readBodyText(request, PASSKIT_BODY_MAX_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new BodyRefused(bodyTooLargeResponse(PASSKIT_BODY_MAX_BYTES));
    if (error instanceof BodyAbortedError) {
      log.info("request body aborted by the client", { request: loggableRequest(request) });
      throw new BodyRefused(empty(400));
    }
    throw error;
  }
  try {
    const json: unknown = JSON.parse(text);
    // Text no input may hold (NUL, lone surrogates) makes the body unusable, as on every door.
    return inputTextErrors(json) ? undefined : json;
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
        const invalid = invalidIdentifier({ deviceLibraryIdentifier, passTypeIdentifier, serialNumber });
        if (invalid) return invalid;
        const pass = { deviceLibraryIdentifier, passTypeIdentifier, serialNumber, token: applePassToken(request) };
        if (method === "DELETE") return empty((await unregisterPassDevice(pass)) ? 200 : 401);
        const body = registrationBody.safeParse(await jsonBody(request));
        if (!body.success) return empty(400);
        const outcome = await registerPassDevice({ ...pass, pushToken: body.data.pushToken });
        return empty(outcome === "created" ? 201 : outcome === "updated" ? 200 : 401);
      }
      if (rest.length === 3 && method === "GET") {
        const invalid = invalidIdentifier({ deviceLibraryIdentifier, passTypeIdentifier });
        if (invalid) return invalid;
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
      const invalid = invalidIdentifier({ passTypeIdentifier, serialNumber });
      if (invalid) return invalid;
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
    if (error instanceof BodyRefused) return error.response;
    log.error("PassKit web service request failed", { method, path: url.pathname, error });
    return empty(500);
  }
}
