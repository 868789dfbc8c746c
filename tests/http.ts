/** Calls the real App Router route modules in-process with real Request objects. */
import * as externalPharmacyRoute from "@/app/v1/external_pharmacy_api/[[...path]]/route";
import * as managementRoute from "@/app/v1/management/[[...path]]/route";
import * as pharmacyPayoutsRoute from "@/app/v1/external-pharmacy-api-v1/[[...path]]/route";
import * as publicRoute from "@/app/v2/public-api/[[...path]]/route";
import * as patientDataRoute from "@/app/api/v0/patient/[[...path]]/route";

import { isDeepStrictEqual } from "node:util";
import { restApiFor } from "@/server/api/rest-apis";
import { documentedResponses } from "@/server/rest/openapi";

type RouteModule = Record<"GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS", (r: Request) => Promise<Response>>;

const modules: Record<string, RouteModule> = {
  "/v1/management": managementRoute,
  "/v2/public-api": publicRoute,
  "/v1/external_pharmacy_api": externalPharmacyRoute,
  "/v1/external-pharmacy-api-v1": pharmacyPayoutsRoute,
  "/api/v0/patient": patientDataRoute,
};

export type CallOptions = {
  key?: string;
  /** JSON body (serialised) — or use `raw` for an exact body. */
  body?: unknown;
  raw?: BodyInit;
  headers?: Record<string, string>;
  query?: Record<string, string | number>;
};

export type Result = { status: number; headers: Headers; text: string; json: any };

export async function call(method: string, path: string, options: CallOptions = {}): Promise<Result> {
  const base = Object.keys(modules).find((b) => path === b || path.startsWith(`${b}/`));
  if (!base) throw new Error(`no route module for ${path}`);
  const url = new URL(path, "http://localhost:3000");
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
  const headers = new Headers(options.headers);
  if (options.key !== undefined) headers.set("x-api-key", options.key);
  let body: BodyInit | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const request = new Request(url, { method, headers, body, ...(body ? { duplex: "half" } : {}) } as RequestInit);
  const handler = modules[base][method.toUpperCase() as keyof RouteModule];
  const response = await handler(request);
  const text = response.status === 204 ? "" : await response.text();
  let json: unknown = undefined;
  if (response.headers.get("content-type")?.includes("application/json")) json = JSON.parse(text);
  if (method.toUpperCase() !== "HEAD") assertDocumented(method, url.pathname, response, text);
  return { status: response.status, headers: response.headers, text, json };
}

/**
 * Every answer of a route that a test receives is one its route documents (server/rest/openapi.ts):
 * its status is listed, and its body validates against the schema for that status with no field
 * the schema lacks. So the API explorers cannot drift from the presenters.
 */
export function assertDocumented(method: string, pathname: string, response: Response, text: string) {
  const api = restApiFor(pathname);
  const route = api?.matchRoute(method, pathname);
  if (!api || !route) return; // an unknown path or method: the kit's HTML 404/405, no route to hold to its document
  const name = `${route.method} ${api.family.basePath}${route.path}`;
  const documented = documentedResponses(api.family, route)[response.status];
  if (!documented) throw new Error(`${name} answered ${response.status}, a status its route does not document: ${text.slice(0, 300)}`);
  if ((response.headers.get("content-type") ?? "").startsWith("text/html")) {
    if (!documented.html) throw new Error(`${name} answered an HTML ${response.status}, which its route does not document`);
    return;
  }
  if (documented.json === null) {
    if (text !== "") throw new Error(`${name} answered ${response.status} with a body; its route documents none`);
    return;
  }
  const body = JSON.parse(text);
  const parsed = documented.json.safeParse(body);
  if (!parsed.success) throw new Error(`${name} answered ${response.status} with a body its schema refuses: ${JSON.stringify(parsed.error.issues).slice(0, 800)}`);
  // zod drops the fields its objects do not name: a body with more fields than its schema shows differs.
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(parsed.data)), body)) {
    throw new Error(`${name} answered ${response.status} with fields its schema does not name: ${text.slice(0, 300)}`);
  }
}

export const get = (path: string, o?: CallOptions) => call("GET", path, o);
export const post = (path: string, o?: CallOptions) => call("POST", path, o);
export const patch = (path: string, o?: CallOptions) => call("PATCH", path, o);
export const del = (path: string, o?: CallOptions) => call("DELETE", path, o);

/**
 * A request body of `chunks` × 64 KiB offered as a stream, and how many chunks the reader has pulled
 * so far: a bounded reader must stop soon after its cap instead of reading everything.
 */
export function oversizedStream(chunks = 64): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled++ >= chunks) return controller.close();
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => pulled };
}
