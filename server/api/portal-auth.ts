import { NextRequest } from "next/server";
import { AUTH_BODY_MAX_BYTES } from "@/server/http/body-limits";
import { log, loggableRequest } from "@/server/log";
import { BodyAbortedError, BodyTooLargeError, bodyTooLargeResponse, readBodyText } from "@/server/rest/body";
import { inputTextErrors } from "@/server/wire/json-input";

/**
 * What next-auth (app/api/auth/[...nextauth]/route.ts) is handed, checked first
 * (docs/security.md#input-limits-and-malformed-input). next-auth reads a POST body whole and
 * unbounded, fails with a 500 on JSON it cannot parse, and answers a GET to the credentials
 * callback with a 500 naming its internals. Here the body is read under AUTH_BODY_MAX_BYTES
 * (413 and the connection closed beyond it) and must be what next-auth's own client sends: a form
 * or a JSON object (the session update), without text no input may hold. Returns the request to
 * hand next-auth (its body already read), or the refusal.
 */
export async function checkedAuthRequest(request: Request, action: string[]): Promise<NextRequest | Response> {
  if (action[0] === "callback" && request.method !== "POST") {
    return plain(405, "Method Not Allowed: a sign-in callback takes a POST.", { allow: "POST" });
  }
  if (request.method !== "POST") return new NextRequest(request);
  let text: string;
  try {
    text = await readBodyText(request, AUTH_BODY_MAX_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return bodyTooLargeResponse(AUTH_BODY_MAX_BYTES);
    if (error instanceof BodyAbortedError) {
      log.info("request body aborted by the client", { request: loggableRequest(request) });
      return plain(400, "Request body aborted.");
    }
    throw error;
  }
  const fields = parsedBody(request, text);
  if (fields === undefined) return plain(400, "Bad Request: expected a form or a JSON object.");
  if (inputTextErrors(fields)) return plain(400, "Bad Request: text may not contain NUL characters or unpaired surrogates.");
  return new NextRequest(request.url, { method: "POST", headers: request.headers, body: text });
}

/** The body as next-auth will read it (form fields or a JSON object); undefined when it is neither. */
function parsedBody(request: Request, text: string): unknown {
  // next-auth's own test of the type (next-auth/next/utils.js getBody).
  if ((request.headers.get("content-type") ?? "").includes("application/json")) {
    try {
      const json: unknown = JSON.parse(text);
      return json !== null && typeof json === "object" && !Array.isArray(json) ? json : undefined;
    } catch {
      return undefined;
    }
  }
  // next-auth reads no other type (the body is then ignored): refused, unless there is none.
  if (!(request.headers.get("content-type") ?? "").includes("application/x-www-form-urlencoded")) return text === "" ? {} : undefined;
  return Object.fromEntries(new URLSearchParams(text));
}

const plain = (status: number, message: string, headers: Record<string, string> = {}) =>
  new Response(`${message}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });
