/** Response builders of the REST kit: every answer carries the API security headers (server/http/security-headers.ts). */
import { apiSecurityHeaders } from "@/server/http/security-headers";

/** A response: `body` is serialised as JSON; `jsonText` is a body already serialised (built by the database). */
export type Reply = { status: number; body?: unknown; jsonText?: string; headers?: Record<string, string> };

export function reply(status: number, body?: unknown): Reply {
  return { status, body };
}

export function replyJsonText(status: number, jsonText: string): Reply {
  return { status, jsonText };
}

export function toResponse(r: Reply, head = false): Response {
  const headers = new Headers(r.headers ? { ...apiSecurityHeaders(), ...r.headers } : apiSecurityHeaders());
  const text = r.jsonText ?? (r.body === undefined ? undefined : JSON.stringify(r.body));
  if (text === undefined || r.status === 204) return new Response(null, { status: r.status, headers });
  headers.set("content-type", "application/json");
  return new Response(head ? null : text, { status: r.status, headers });
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The short HTML error pages the spec prescribes for unknown paths, unknown methods and rate limiting. */
function htmlPage(status: number, title: string, message: string, headers: Record<string, string> = {}): Response {
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${status} ${esc(title)}</title></head>
<body><h1>${status} ${esc(title)}</h1><p>${esc(message)}</p></body></html>
`;
  return new Response(body, { status, headers: { ...apiSecurityHeaders(), "content-type": "text/html; charset=utf-8", ...headers } });
}

export const notFoundPage = (path: string) =>
  htmlPage(404, "Not Found", `The requested URL ${path} was not found on this server.`);

export const methodNotAllowedPage = (method: string, allowed: string[]) =>
  htmlPage(405, "Method Not Allowed", `The method ${method} is not allowed for the requested URL.`, {
    allow: allowed.join(", "),
  });

export const tooManyRequestsPage = () =>
  htmlPage(429, "Too Many Requests", "Too many requests in one second. Wait at least one second and retry.");
